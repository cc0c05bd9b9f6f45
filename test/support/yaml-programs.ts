/**
 * Every Pulumi YAML program users are shown: each ```yaml block of the README that declares
 * `resources:`, and examples/yaml. The unit tier checks that each is a whole program whose
 * interpolations are all declared; the engine tier converts each with `pulumi convert`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const REPO_ROOT = join(__dirname, "..", "..");

export interface ShownProgram {
  /** Where users see it: `README.md#2` (the second YAML program there), `examples/yaml`. */
  readonly where: string;
  readonly text: string;
}

export function shownYamlPrograms(): ShownProgram[] {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
  const programs = blocks.filter((block) => /^resources:/m.test(block));
  return [
    ...programs.map((text, index) => ({ where: `README.md#${index + 1}`, text })),
    {
      where: "examples/yaml",
      text: readFileSync(join(REPO_ROOT, "examples", "yaml", "Pulumi.yaml"), "utf8"),
    },
  ];
}

/** The keys of a top-level section (`config:`, `resources:`, `variables:`) of a YAML program. */
export function sectionKeys(program: string, section: string): string[] {
  const lines = program.split("\n");
  const start = lines.findIndex((line) => line === `${section}:`);
  if (start < 0) return [];
  const keys: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const key = /^ {2}([A-Za-z0-9_-]+):/.exec(line)?.[1];
    if (key !== undefined) keys.push(key);
  }
  return keys;
}

/** The names each `${…}` interpolation starts with: `sipPassword`, `trunk` (of `trunk.carrierId`). */
export function interpolatedNames(program: string): string[] {
  const withoutComments = program.replace(/\s#.*$/gm, "");
  return [...withoutComments.matchAll(/\$\{([A-Za-z0-9_-]+)/g)].map((match) => match[1]!);
}
