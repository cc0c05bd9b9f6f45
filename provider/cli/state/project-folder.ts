/**
 * What the commands find and write in the project's folder: the folder itself, where the engine
 * runs the provider, and the backups of the state that recover and rekey replace.
 */
import { constants, existsSync } from "node:fs";
import { lstat, mkdir, open } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { BackendTimeoutError, RecoveryRefused } from "../errors";
import { stackOfUrn, type ExportedStack } from "./exported-state";

/** The folder holding Pulumi.yaml, where the engine runs the provider: sample paths resolve here. */
export function projectDirectory(start: string): string {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "Pulumi.yaml")) || existsSync(join(dir, "Pulumi.yml"))) return dir;
    if (dirname(dir) === dir) return resolve(start);
  }
}

/**
 * Writes the export being replaced (made without --show-secrets: ciphertext) beside the project;
 * the stack's name comes from `--stack` or else from a URN of the stack.
 */
export async function saveBackup(
  stored: ExportedStack,
  someUrn: string | undefined,
  stack: string | undefined,
  projectDir: string,
  now: Date,
): Promise<string> {
  const anyUrn = someUrn ?? stored.deployment.resources?.[0]?.urn;
  const stackName = stack ?? (anyUrn === undefined ? "stack" : (stackOfUrn(anyUrn) ?? "stack"));
  const ownDir = join(projectDir, ".pulumi-voice-platform");
  const backups = join(ownDir, "backups");
  await realFolder(ownDir);
  await realFolder(backups);
  // Keeps the backups out of git without touching the project's own .gitignore; one already
  // there (whatever it is, a link included) is left alone.
  await writeNewFile(join(ownDir, ".gitignore"), "*\n").catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  const base = `${stackName.replace(/[^\w.-]/g, "_")}-${now.toISOString().replace(/[:.]/g, "-")}`;
  // A backup of the same millisecond is kept: the next free name takes this one.
  for (let copy = 1; ; copy++) {
    const backup = join(backups, copy === 1 ? `${base}.json` : `${base}-${copy}.json`);
    const written = await writeNewFile(backup, `${JSON.stringify(stored, null, 2)}\n`).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST" || copy >= 100) throw error;
        return false;
      },
    );
    if (written) return backup;
  }
}

/**
 * A run stopped at its deadline once the backup is written may have changed the stack: its
 * message names the backup that restores it.
 */
export function namingBackup(error: unknown, backup: string): unknown {
  if (!(error instanceof BackendTimeoutError)) return error;
  return new BackendTimeoutError(
    `${error.message}. The state before this command is saved in ${backup}: \`pulumi stack import --file ${backup}\` restores it`,
  );
}

/** A folder of recover's own, made when missing; a symbolic link or a file in its place is refused. */
async function realFolder(path: string): Promise<void> {
  await mkdir(path, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  if (!(await lstat(path)).isDirectory()) {
    throw new RecoveryRefused(
      `${path} is a symbolic link or not a folder: recover writes its backups only into a folder of its own, never through a link. Remove it and run recover again`,
    );
  }
}

/**
 * Creates a file that did not exist, owner-only, never through a symbolic link: O_EXCL fails on
 * any existing name, a dangling link included, and O_NOFOLLOW on a link.
 */
async function writeNewFile(path: string, text: string): Promise<void> {
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  const file = await open(path, flags, 0o600);
  try {
    await file.writeFile(text);
  } finally {
    await file.close();
  }
}
