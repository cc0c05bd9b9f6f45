/**
 * Every Pulumi YAML program users are shown: each ```yaml block that declares `resources:` in the
 * README and the hand-written pages of docs/, and examples/yaml. The unit tier checks that each
 * is a whole program whose interpolations are all declared; the engine tier converts each with
 * `pulumi convert`. (The resource pages of docs/api-docs show the schema's examples, fragments
 * that every SDK's docstring carries too.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const REPO_ROOT = join(__dirname, "..", "..");

export interface ShownProgram {
  /** Where users see it: `docs/languages.md#2` (the second YAML program there), `examples/yaml`. */
  readonly where: string;
  readonly text: string;
}

/** The pages users read: the README and docs/*.md. */
function pages(): string[] {
  const docs = readdirSync(join(REPO_ROOT, "docs")).filter((name) => name.endsWith(".md"));
  return ["README.md", ...docs.sort().map((name) => `docs/${name}`)];
}

export function shownYamlPrograms(): ShownProgram[] {
  const programs = pages().flatMap((page) => {
    const text = readFileSync(join(REPO_ROOT, page), "utf8");
    const blocks = [...text.matchAll(/^```yaml\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
    return blocks
      .filter((block) => /^resources:/m.test(block))
      .map((block, index) => ({ where: `${page}#${index + 1}`, text: block }));
  });
  return [
    ...programs,
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
