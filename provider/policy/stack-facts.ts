/**
 * What a policy pack learns of the stack beside its resources. Pulumi's Node.js language host
 * starts a pack with the stack's configuration in PULUMI_CONFIG (secret values decrypted, with no
 * word of which are secret) and its project's and stack's names in PULUMI_NODEJS_PROJECT and
 * PULUMI_NODEJS_STACK; `pulumi policy analyze` gives none of them. The project's folder is where
 * `pulumi` runs (PWD, as a shell sets it) when that folder's Pulumi.yaml names the same project:
 * its program's files, and its stack's config file, which says which keys are secret (`secure:`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

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

/** The folder of the project being checked, when `pulumi` runs in it; undefined otherwise. */
function projectFolder(env: NodeJS.ProcessEnv): string | undefined {
  const folder = env.PWD;
  const project = env.PULUMI_NODEJS_PROJECT;
  return folder !== undefined && project !== undefined && projectNameIn(folder) === project
    ? folder
    : undefined;
}

/**
 * The stack's config keys (`project:key`) set with --secret, from its Pulumi.<stack>.yaml;
 * undefined when that file cannot be read.
 */
export function secretConfigKeys(env: NodeJS.ProcessEnv = process.env): Set<string> | undefined {
  const folder = projectFolder(env);
  const stack = env.PULUMI_NODEJS_STACK?.split("/").pop();
  if (folder === undefined || stack === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(join(folder, `Pulumi.${stack}.yaml`), "utf8");
  } catch {
    return undefined;
  }
  // Under `config:`, a key whose value is a `secure:` mapping: `  project:key:` then `    secure: v1:…`.
  const keys = [...text.matchAll(/^ {2}["']?([^"'\s:]+:[^"'\s:]+)["']?:\s*\n\s+secure:/gm)];
  return new Set(keys.map((match) => match[1]!));
}

/**
 * The program's source files (stack config files left out: their plain values are in
 * PULUMI_CONFIG, their secret ones encrypted), or undefined when its folder is not known.
 */
export function programFiles(env: NodeJS.ProcessEnv = process.env): ProgramFile[] | undefined {
  const folder = projectFolder(env);
  if (folder === undefined) return undefined;
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
