/**
 * What a policy pack learns of the stack beside its resources. Pulumi's Node.js language host
 * starts a pack with the stack's configuration in PULUMI_CONFIG (secret values shown as
 * "[secret]") and its project's name in PULUMI_NODEJS_PROJECT; `pulumi policy analyze` gives
 * neither. The program's files are found where `pulumi` runs, the usual folder of a project
 * (PWD), when that folder's Pulumi.yaml names the same project.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** How PULUMI_CONFIG shows a value that is secret. */
export const SECRET_CONFIG_VALUE = "[secret]";

/** The stack's configuration by key (`voiceplatform:maxConcurrency`); undefined when not given. */
export function stackConfig(
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
  const text = env.PULUMI_CONFIG;
  if (text === undefined || text === "") return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === "object"
      ? (parsed as Record<string, string>)
      : undefined;
  } catch {
    return undefined;
  }
}

export interface ProgramFile {
  /** The path from the project's folder. */
  readonly name: string;
  readonly text: string;
}

const PROGRAM_EXTENSIONS = /\.(ts|js|mjs|cjs|py|go|ya?ml|cs|java|fs|vb)$/;
const SKIPPED_FOLDERS = new Set([
  "node_modules",
  ".git",
  "venv",
  ".venv",
  "dist",
  "bin",
  "obj",
  "__pycache__",
]);
const MAX_FILES = 500;
const MAX_FILE_BYTES = 1024 * 1024;

/** The name a Pulumi.yaml gives its project. */
function projectNameIn(folder: string): string | undefined {
  try {
    const text = readFileSync(join(folder, "Pulumi.yaml"), "utf8");
    return /^name:\s*["']?([^"'\s#]+)/m.exec(text)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The program's source files (stack config files left out: their plain values are in
 * PULUMI_CONFIG, their secret ones encrypted), or undefined when its folder is not known.
 */
export function programFiles(env: NodeJS.ProcessEnv = process.env): ProgramFile[] | undefined {
  const folder = env.PWD;
  const project = env.PULUMI_NODEJS_PROJECT;
  if (folder === undefined || project === undefined || projectNameIn(folder) !== project) {
    return undefined;
  }
  const files: ProgramFile[] = [];
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (files.length >= MAX_FILES) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 3 && !SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith("."))
          walk(path, depth + 1);
      } else if (PROGRAM_EXTENSIONS.test(entry.name) && !/^Pulumi\..+\.ya?ml$/.test(entry.name)) {
        if (statSync(path).size <= MAX_FILE_BYTES) {
          files.push({ name: relative(folder, path), text: readFileSync(path, "utf8") });
        }
      }
    }
  };
  walk(folder, 0);
  return files;
}
