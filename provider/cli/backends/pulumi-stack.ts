/**
 * The Pulumi CLI on PATH, for the commands preflight, recover and rekey need. Going through the
 * CLI (not the backend's files) is what makes them work with every backend it can log into. Each
 * run has the backend's deadline (backend-deadline.ts): past it the process is killed.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  BACKEND_TIMEOUT_VARIABLE,
  backendDeadline,
  limitText,
  type BackendDeadline,
} from "./backend-deadline";
import { configuredBackendUrl, describeBackend } from "./backend-url";
import { brokenCheckpointSidecars, brokenSidecarAdvice } from "./checkpoint-sidecar";
import { fileBackendDirectory } from "./stack-lock";
import type { ExportedStack } from "../state/exported-state";
import { projectDirectory } from "../state/project-folder";
import type { StackAccess } from "./stack-lock";
import {
  BackendReadError,
  BackendTimeoutError,
  PulumiCliError,
  StackCommandError,
  StackNotFoundError,
} from "../errors";

export interface StackTarget {
  readonly stack?: string;
  readonly cwd?: string;
}

function targetArgs(target: StackTarget): string[] {
  return [
    ...(target.cwd === undefined ? [] : ["--cwd", target.cwd]),
    ...(target.stack === undefined ? [] : ["--stack", target.stack]),
    "--non-interactive",
  ];
}

/** One `pulumi` run: its arguments, the stack it is for, what it reads on stdin. */
interface PulumiRun {
  readonly args: string[];
  readonly target: StackTarget;
  readonly stdin?: string;
  /** For a run that writes the stack: what it may have done when stopped. Reads changed nothing. */
  readonly ifStopped?: string;
}

/** Runs `pulumi` (below), once more when it lost the race to set up a new backend. */
async function runPulumi(run: PulumiRun): Promise<string> {
  try {
    return await runPulumiOnce(run);
  } catch (error) {
    // A new PostgreSQL backend opened by several jobs at once: the loser stopped before acting,
    // and the table it tried to create is there now.
    if (error instanceof PulumiCliError && error.isBackendTableRace) return runPulumiOnce(run);
    throw error;
  }
}

/**
 * Runs `pulumi`; past the backend's deadline Node kills it (SIGKILL: these commands have nothing
 * to finish on the way out, and a process stuck in a read ends at once) and the run fails with
 * BackendTimeoutError.
 */
function runPulumiOnce(run: PulumiRun): Promise<string> {
  const { args } = run;
  const deadline = backendDeadline();
  return new Promise((resolvePromise, reject) => {
    const child = spawn("pulumi", args, {
      stdio: ["pipe", "pipe", "pipe"],
      env: { PULUMI_SKIP_UPDATE_CHECK: "true", ...process.env },
      signal: deadline.signal,
      killSignal: "SIGKILL",
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      // The deadline: Node kills the process, and "close" says so below.
      if (error.name === "AbortError") return;
      reject(
        error.code === "ENOENT"
          ? new BackendReadError(
              "the `pulumi` CLI is not on PATH: install it, or run this where `pulumi up` runs",
            )
          : error,
      );
    });
    child.on("exit", (_code, signal) => {
      // Killed at the deadline: a process it started may still hold the pipes, and "close" must
      // not wait for it.
      if (deadline.signal.aborted && signal === "SIGKILL") {
        child.stdout.destroy();
        child.stderr.destroy();
      }
    });
    child.on("close", (code, signal) => {
      if (code === 0) resolvePromise(Buffer.concat(stdout).toString("utf8"));
      else if (deadline.signal.aborted) reject(pulumiTimedOut(run, deadline));
      else {
        const exit = signal === null ? `exit code ${code}` : `signal ${signal}`;
        reject(new PulumiCliError(args, Buffer.concat(stderr).toString("utf8"), exit));
      }
    });
    // A pulumi that exits before reading its input (EPIPE) says why by its exit and stderr.
    child.stdin.on("error", () => undefined);
    child.stdin.end(run.stdin ?? "");
  });
}

/** What a run stopped at its deadline tells: the backend, what may have happened, what to check. */
function pulumiTimedOut(run: PulumiRun, deadline: BackendDeadline): BackendTimeoutError {
  const command = ["pulumi", ...run.args.filter((arg) => arg !== "--non-interactive")].join(" ");
  const backend = describeBackend(configuredBackendOf(run.target));
  const outcome = run.ifStopped ?? "Nothing was changed";
  return new BackendTimeoutError(
    `\`${command}\` did not finish within ${limitText(deadline)} and was stopped: ${backend} did not answer in time. ${outcome}. ` +
      "Check that the backend runs and answers (not stopped, paused or overloaded; no proxy or firewall holding the connection) and that this job has the backend URL and credentials `pulumi up` uses; " +
      `if the backend is only slow, give each read longer with ${BACKEND_TIMEOUT_VARIABLE}`,
  );
}

/**
 * `pulumi stack export`. Without `showSecrets` every secret stays ciphertext, and nothing needs
 * the passphrase; with it the caller holds secrets in memory and must never print or write them.
 */
export async function exportStack(
  target: StackTarget,
  options: { showSecrets?: boolean } = {},
): Promise<ExportedStack> {
  const args = ["stack", "export", ...targetArgs(target)];
  if (options.showSecrets === true) args.push("--show-secrets");
  const text = await runPulumi({ args, target }).catch((error: unknown) => {
    throw readFailure(error, target);
  });
  const parsed = JSON.parse(text) as ExportedStack;
  if (parsed.version !== 3 || typeof parsed.deployment !== "object" || parsed.deployment === null) {
    throw new StackCommandError(
      `\`pulumi stack export\` wrote a deployment of version ${String(parsed.version)}; this command reads version 3`,
    );
  }
  return parsed;
}

/**
 * A failed read of the stack as the error the command's exit code is chosen by: the stack does not
 * exist, or the backend could not be read (its message is the CLI's own).
 */
export function readFailure(error: unknown, target: StackTarget): unknown {
  if (!(error instanceof PulumiCliError)) return error;
  const stack = target.stack === undefined ? "the current stack" : `stack ${target.stack}`;
  if (error.isStackNotFound) {
    return new StackNotFoundError(
      `${stack} does not exist on the backend \`pulumi\` is logged into (${firstErrorLine(error.stderr)}). ` +
        "If it was never deployed, create it once with `pulumi stack init`; otherwise check PULUMI_BACKEND_URL and the stack's full name (organization/project/stack)",
    );
  }
  if (error.isNewBackendUnwritable) {
    return new StackNotFoundError(
      `${stack} does not exist: the backend holds no stack yet (\`pulumi\` could not write .pulumi/meta.yaml, the file it adds to a new backend, with these read-only credentials). ` +
        "Its first deployment, with write credentials, creates it; otherwise check PULUMI_BACKEND_URL",
    );
  }
  const broken = brokenSidecarOf(target);
  if (broken !== undefined) {
    return new BackendReadError(`could not read ${stack} from the backend: ${broken}`);
  }
  return new BackendReadError(
    `could not read ${stack} from the backend: ${error.message}. Check PULUMI_BACKEND_URL and the backend's credentials`,
  );
}

/** The backend URL `pulumi` uses for the target's project, found without running it. */
function configuredBackendOf(target: StackTarget): string | undefined {
  return configuredBackendUrl(projectDirectory(target.cwd ?? process.cwd()));
}

/** On a file backend, a checkpoint sidecar a killed run cut short: the advice for the first one. */
function brokenSidecarOf(target: StackTarget): string | undefined {
  const url = configuredBackendOf(target);
  const folder = url === undefined ? undefined : fileBackendDirectory(url);
  if (folder === undefined) return undefined;
  const [first] = brokenCheckpointSidecars(folder, target.stack);
  return first === undefined ? undefined : brokenSidecarAdvice(first);
}

function firstErrorLine(stderr: string): string {
  return (stderr.split("\n").find((line) => line.trim() !== "") ?? "").trim();
}

/** `pulumi stack import`, reading the deployment from standard input so it never sits in a file. */
export async function importStack(target: StackTarget, exported: ExportedStack): Promise<void> {
  await runPulumi({
    args: ["stack", "import", ...targetArgs(target)],
    target,
    stdin: JSON.stringify(exported),
    ifStopped:
      "The stack holds either its former state or the one being imported (the backend stores a state whole), and may keep the lock the import took: run `pulumi-voice-platform preflight` to see which",
  });
}

/**
 * `pulumi cancel --yes`: on a file backend it deletes the stack's lock files, which a killed CLI
 * leaves behind; on Pulumi Cloud it ends the update the killed CLI started.
 */
export async function cancelUpdate(target: StackTarget): Promise<void> {
  await runPulumi({
    args: ["cancel", "--yes", ...targetArgs(target)],
    target,
    ifStopped: "The stack's lock may or may not have been released",
  });
}

/** The backend URL `pulumi whoami --json` reports (the project's, the environment's or the login's). */
export async function backendUrl(target: StackTarget): Promise<string | undefined> {
  const args = ["whoami", "--json", "--non-interactive"];
  if (target.cwd !== undefined) args.push("--cwd", target.cwd);
  const parsed = JSON.parse(
    await runPulumi({ args, target }).catch((error: unknown) => {
      throw readFailure(error, target);
    }),
  ) as { url?: unknown };
  return typeof parsed.url === "string" ? parsed.url : undefined;
}

/** `updateInProgress` of the stack in `pulumi stack ls --json`; file backends never set it. */
export async function updateInProgress(target: StackTarget): Promise<boolean> {
  const args = ["stack", "ls", "--json", "--non-interactive"];
  if (target.cwd !== undefined) args.push("--cwd", target.cwd);
  const stacks = JSON.parse(
    await runPulumi({ args, target }).catch((error: unknown) => {
      throw readFailure(error, target);
    }),
  ) as {
    name?: string;
    current?: boolean;
    updateInProgress?: boolean;
  }[];
  const wanted = target.stack?.split("/").at(-1);
  const stack = stacks.find((s) =>
    wanted === undefined ? s.current === true : s.name?.split("/").at(-1) === wanted,
  );
  return stack?.updateInProgress === true;
}

/** A stack `pulumi stack ls --all --json` lists: its full name, project and stack. */
export interface ListedStack {
  readonly name: string;
  readonly project: string;
  readonly stack: string;
  /** `<project>/<stack>`, as URNs and the ledger name it. */
  readonly key: string;
}

/**
 * Every stack on the backend the project folder's `pulumi` uses, of every project: the names
 * are `organization/<project>/<stack>` on self-managed backends and `<org>/<project>/<stack>` on
 * Pulumi Cloud, and the folder's own project's stacks go by their short name.
 */
export async function listStacks(cwd: string): Promise<ListedStack[]> {
  const target = { cwd };
  const args = ["stack", "ls", "--all", "--json", "--non-interactive", "--cwd", cwd];
  const listed = JSON.parse(
    await runPulumi({ args, target }).catch((error: unknown) => {
      throw readFailure(error, target);
    }),
  ) as { name?: string }[];
  // Inside a project the CLI names that project's stacks by their short name.
  const here = projectNameIn(cwd);
  return listed.flatMap(({ name }) => {
    const parts = name?.split("/") ?? [];
    if (name === undefined || name === "") return [];
    const [project, stack] =
      parts.length >= 2 ? (parts.slice(-2) as [string, string]) : [here, parts[0]!];
    if (project === undefined) return [];
    return [{ name, project, stack, key: `${project}/${stack}` }];
  });
}

/** The `name:` of the Pulumi.yaml in `dir`, if there is one. */
function projectNameIn(dir: string): string | undefined {
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    return /^name:[ \t]*["']?([^"'\s#]+)/m.exec(readFileSync(path, "utf8"))?.[1];
  }
  return undefined;
}

/**
 * The Pulumi CLI on PATH as the StackAccess preflight and recover use. The backend URL is asked
 * once per command: it cannot change while the command runs, and each `pulumi whoami` costs a CLI
 * start.
 */
export function cliStackAccess(target: StackTarget): StackAccess {
  let url: Promise<string | undefined> | undefined;
  return {
    exportStack: (options) => exportStack(target, options),
    importStack: (exported) => importStack(target, exported),
    cancelUpdate: () => cancelUpdate(target),
    backendUrl: () => (url ??= backendUrl(target)),
    updateInProgress: () => updateInProgress(target),
  };
}
