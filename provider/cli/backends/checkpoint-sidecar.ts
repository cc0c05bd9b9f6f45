/**
 * A stack on a file backend that no `pulumi` command can read because the checkpoint's metadata
 * sidecar (`<stack>.json.attrs`) was cut short by a killed run. Why and how it was measured:
 * docs/operations.md#a-stack-every-command-fails-on-with-eof.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface BrokenSidecar {
  readonly sidecar: string;
  readonly bytes: number;
  readonly checkpoint: string;
  /** The checkpoint itself parses as JSON (a compressed one is not opened: undefined). */
  readonly checkpointIntact: boolean | undefined;
}

const CHECKPOINT_ENDINGS = [".json", ".json.gz", ".json.zst"];

/**
 * The stack checkpoints under `.pulumi/stacks` (project layout and the older one without projects)
 * whose sidecar does not parse. `stack` is the name as given to `--stack` (its last segment names
 * the file); without it every stack's is checked.
 */
export function brokenCheckpointSidecars(backendDir: string, stack?: string): BrokenSidecar[] {
  const stacksDir = join(backendDir, ".pulumi", "stacks");
  const stackName = stack?.split("/").at(-1);
  return checkpointFolders(stacksDir)
    .flatMap((folder) =>
      readdirSync(folder)
        .filter((name) => isCheckpointSidecar(name, stackName))
        .map((name) => join(folder, name)),
    )
    .filter((sidecar) => !parses(readFileSync(sidecar, "utf8")))
    .map(describeBroken);
}

function checkpointFolders(stacksDir: string): string[] {
  if (!existsSync(stacksDir)) return [];
  const projects = readdirSync(stacksDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(stacksDir, entry.name));
  return [stacksDir, ...projects];
}

function isCheckpointSidecar(name: string, stackName: string | undefined): boolean {
  if (!name.endsWith(".attrs")) return false;
  const file = name.slice(0, -".attrs".length);
  return CHECKPOINT_ENDINGS.some((ending) =>
    stackName === undefined ? file.endsWith(ending) : file === stackName + ending,
  );
}

function describeBroken(sidecar: string): BrokenSidecar {
  const checkpoint = sidecar.slice(0, -".attrs".length);
  const checkpointIntact = !checkpoint.endsWith(".json")
    ? undefined
    : existsSync(checkpoint) && parses(readFileSync(checkpoint, "utf8"));
  return { sidecar, bytes: statSync(sidecar).size, checkpoint, checkpointIntact };
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** What to tell the user: which file, why it is broken, and the fix only when it is safe. */
export function brokenSidecarAdvice(broken: BrokenSidecar): string {
  const what =
    `the checkpoint's sidecar ${broken.sidecar} is ${broken.bytes === 0 ? "empty" : `cut short (${broken.bytes} bytes)`}: ` +
    "Pulumi's file backend rewrites that file in place on every save, and a `pulumi` killed in that moment leaves it so; " +
    'every `pulumi` command on the stack then fails with "failed to load checkpoint: EOF"';
  if (broken.checkpointIntact === false) {
    return (
      `${what}. The checkpoint ${broken.checkpoint} does not parse either: remove nothing yet. Its previous save is ` +
      `${broken.checkpoint}.bak; docs/operations.md ("A stack every command fails on") says how to put it back`
    );
  }
  const intact =
    broken.checkpointIntact === true
      ? `The checkpoint ${broken.checkpoint} itself is intact (it parses). `
      : "";
  return (
    `${what}. ${intact}The sidecar holds only the file's metadata, and Pulumi reads a checkpoint that has none: ` +
    `remove it with \`rm '${broken.sidecar}'\`, then run this command again`
  );
}
