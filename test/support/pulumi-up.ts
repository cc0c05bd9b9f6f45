/**
 * `pulumi up --yes` as users run it, with its preview phase. The Automation API's `stack.up()`
 * always passes `--skip-preview`, so a test written with it never sees what a preview does.
 * This runs the CLI the workspace uses, in the stack's directory and environment, and answers
 * what `stack.up()` answers.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EngineEvent, Stack, UpResult } from "@pulumi/pulumi/automation";

export interface UpWithPreviewOptions {
  onOutput?: (text: string) => void;
  /** Called with each engine event of the preview and the update, after the run. */
  onEvent?: (event: EngineEvent) => void;
  /** Extra CLI arguments, e.g. `["--parallel", "4"]`. */
  args?: readonly string[];
}

/** A failed `pulumi up`, with what it printed. */
export class PulumiUpFailed extends Error {
  constructor(
    readonly code: number | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`pulumi up exited with ${code}\n${stderr}\n${stdout}`);
    this.name = "PulumiUpFailed";
  }
}

export async function upWithPreview(
  stack: Stack,
  options: UpWithPreviewOptions = {},
): Promise<UpResult> {
  const workspace = stack.workspace;
  const logDir = await mkdtemp(join(tmpdir(), "voice-platform-up-events-"));
  const eventLog = join(logDir, "events.jsonl");
  try {
    const args = [
      "up",
      "--yes",
      "--non-interactive",
      "--stack",
      stack.name,
      "--event-log",
      eventLog,
      ...(options.args ?? []),
    ];
    const env = {
      ...process.env,
      ...workspace.envVars,
      ...(workspace.pulumiHome === undefined ? {} : { PULUMI_HOME: workspace.pulumiHome }),
      // The CLI accepts `--event-log` only with its debug commands on, as stack.up() sets them.
      PULUMI_DEBUG_COMMANDS: "true",
    };
    const { code, stdout, stderr } = await new Promise<{
      code: number | null;
      stdout: string;
      stderr: string;
    }>((resolve, reject) => {
      const child = spawn(workspace.pulumiCommand.command, args, {
        cwd: workspace.workDir,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        out += text;
        options.onOutput?.(text);
      });
      child.stderr.setEncoding("utf8").on("data", (text: string) => (err += text));
      child.on("error", reject);
      child.on("close", (exitCode) => resolve({ code: exitCode, stdout: out, stderr: err }));
    });
    if (options.onEvent !== undefined) {
      const lines = (await readFile(eventLog, "utf8").catch(() => "")).split("\n");
      for (const line of lines) if (line.trim() !== "") options.onEvent(JSON.parse(line));
    }
    if (code !== 0) throw new PulumiUpFailed(code, stdout, stderr);
    return { stdout, stderr, outputs: await stack.outputs(), summary: (await stack.info())! };
  } finally {
    await rm(logDir, { recursive: true, force: true });
  }
}
