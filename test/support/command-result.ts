/**
 * A command run to its end, answering its exit status and output whatever the status: what a
 * test asserts on a command that is meant to fail. A command that could not start still throws.
 */
import { execFile, type ExecFileOptions } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runToEnd(
  file: string,
  args: readonly string[],
  options: ExecFileOptions = {},
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run(file, args, {
      maxBuffer: 64 * 1024 * 1024,
      ...options,
      encoding: "utf8",
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: unknown; stdout?: string; stderr?: string };
    // No output at all: the command never ran (no such file, not executable).
    if (failure.stdout === undefined) throw error;
    return {
      // A command ended by a signal has no exit status: a failure all the same.
      code: typeof failure.code === "number" ? failure.code : 1,
      stdout: failure.stdout,
      stderr: failure.stderr ?? "",
    };
  }
}
