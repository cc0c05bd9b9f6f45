/**
 * What a policy pack learns of the stack beside its resources. Pulumi's Node.js language host
 * starts a pack with the stack's configuration in PULUMI_CONFIG (secret values decrypted, with no
 * word of which are secret) and its project's and stack's names in PULUMI_NODEJS_PROJECT and
 * PULUMI_NODEJS_STACK; `pulumi policy analyze` gives none of them. The project's folder is where
 * `pulumi` runs (PWD, as a shell sets it) when that folder's Pulumi.yaml names the same project:
 * its stack's config file says which keys are secret (`secure:`). No other file is read.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

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
