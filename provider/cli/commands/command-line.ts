import { parseArgs } from "node:util";
import {
  BACKEND_TIMEOUT_VARIABLE,
  DEFAULT_BACKEND_TIMEOUT_SECONDS,
} from "../backends/backend-deadline";
import { UsageError } from "../errors";
import { DEFAULT_API_KEY, faultProfileNames } from "../../emulator";
import { LEFTOVERS_USAGE } from "./leftovers";

export const USAGE = `Usage:
  pulumi-voice-platform preflight [--stack NAME] [--cwd DIR]
      Exits 0 when the stack has no pending operation on this package's resources. Otherwise
      lists each one (what to look for on the platform) with the command that records it, and
      exits 1. Exits 3 when the stack is locked by an update that may still be running (its
      holder and age where the backend shows them): its pending operations are that update's
      work in flight; wait for it to finish and do not run recover.
  pulumi-voice-platform recover [--stack NAME] [--cwd DIR] [URN=ID]... [--forget URN]...
                                [--cancel-stale-lock]
      Records each interrupted create URN as the object ID that the platform holds, with the
      state a finished create would have written; a create whose answer the ledger holds
      (docs/operations.md "The ledger") is recorded with that id without being named. --forget drops an interrupted create that
      never reached the platform, so the next \`pulumi up\` creates it. Every interrupted create
      of this package must be named once. The replaced state is saved to a backup file first.
      A locked stack is refused (naming the lock's holder and age) unless --cancel-stale-lock
      is given, which releases the lock of a stopped run (pulumi cancel); a lock held by a
      process still running on this machine is never released. recover reads the state again
      just before importing and refuses if anything but timestamps changed.

  pulumi-voice-platform rekey [--stack NAME] [--cwd DIR]
      Gives every webhook whose id an earlier version derived from its inputs (secret ones
      included) a new id, <campaignId>/<random UUID>, and the stack's outputs that repeat it.
      Nothing is sent to the platform and nothing is replaced. The replaced state is saved to a
      backup file first; a locked stack or one with interrupted operations is refused.

${LEFTOVERS_USAGE}

  pulumi-voice-platform policy-pack DIR
      Writes the platform's policy pack (docs/policies.md) into DIR, a new or empty folder, for
      \`pulumi preview --policy-pack DIR\` and \`pulumi policy analyze --policy-pack DIR\`.

  pulumi-voice-platform emulator [--port 4010] [--campaigns-port 4011] [--api-key KEY]
                                 [--sub-org ID]... [--state FILE] [--faults PROFILE[,PROFILE]]
                                 [--answers spec|extended] [--latency-ms N] [--rate-limit N]
                                 [--seed N] [--ready-file FILE] [--outlive-parent]
      Serves a local stand-in for the platform on 127.0.0.1 until Ctrl-C or SIGTERM, or until
      the process that started it ends (unless --outlive-parent), and prints
      VOICEPLATFORM_BASE_URL=... and VOICEPLATFORM_CAMPAIGNS_BASE_URL=... once it listens;
      --ready-file FILE gets those lines and VOICEPLATFORM_EMULATOR_PID=... then (removed when
      it stops).
      --port 0 picks free ports (for both origins unless --campaigns-port is given); --api-key
      is the key it accepts (default ${DEFAULT_API_KEY}); --sub-org, repeatable, the
      x-sub-organization-id values it accepts; --state a file that keeps its objects across
      runs (secrets redacted); --faults the fault profiles in force from the start
      (${faultProfileNames.join(", ")}).
      See docs/testing-your-stacks.md.

preflight, recover and rekey run the \`pulumi\` CLI on PATH (stack export / stack import), so
they work with any backend it is logged into; they read the stack's lock themselves on file,
PostgreSQL, S3-compatible and Azure Blob backends (with the same URL and credentials as
\`pulumi\`), ask Pulumi Cloud whether an update is in progress, and cannot see a lock on Google
Cloud Storage (preflight says so). --stack and --cwd are passed on to it.

Every read of the state backend (each \`pulumi\` run, each read of the locks) has a deadline:
${DEFAULT_BACKEND_TIMEOUT_SECONDS} s unless ${BACKEND_TIMEOUT_VARIABLE} says otherwise (1 to 600). A backend that
does not answer within it is exit 5, naming the backend and what to check; a \`pulumi\` run past it
is killed.

Exit codes (the same for every command, one meaning each):
  0  nothing pending (preflight); recorded (recover); rekeyed, or nothing to rekey (rekey);
     nothing left on the platform, or settled (leftovers); written (policy-pack); stopped by a
     signal (emulator)
  1  pending operations of a stopped run (preflight); refused, nothing changed (recover, rekey,
     policy-pack); objects left that need a person (leftovers); could not start: a port in use,
     a state file it cannot read (emulator)
  2  bad command line (or a bad ${BACKEND_TIMEOUT_VARIABLE})
  3  locked by an update that may still be running: wait for it; do not run recover
  4  the stack does not exist on the backend (never deployed, or a wrong name or backend)
  5  the backend could not be read (state or locks) or did not answer in time, or the Pulumi CLI
     failed: nothing changed, but for an import that recover or rekey started and the deadline
     stopped, which may have landed: the message names the backup that restores the stack`;

export type CommandLine =
  | { readonly command: "help" }
  /** The emulator parses its own flags (emulator-command.ts). */
  | { readonly command: "emulator"; readonly argv: readonly string[] }
  /** leftovers parses its own flags (leftovers.ts). */
  | { readonly command: "leftovers"; readonly argv: readonly string[] }
  | { readonly command: "preflight"; readonly stack?: string; readonly cwd?: string }
  | { readonly command: "rekey"; readonly stack?: string; readonly cwd?: string }
  | { readonly command: "policy-pack"; readonly dir: string; readonly cwd?: string }
  | {
      readonly command: "recover";
      readonly stack?: string;
      readonly cwd?: string;
      /** `URN=ID` as given; split against the stack's pending URNs, since either may hold "=". */
      readonly assignments: string[];
      readonly forget: string[];
      /** Present (true) only when --cancel-stale-lock was given. */
      readonly cancelStaleLock?: true;
    };

const options = {
  stack: { type: "string", short: "s" },
  cwd: { type: "string", short: "C" },
  forget: { type: "string", multiple: true },
  "cancel-stale-lock": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof options }>>["values"];

/** What every command takes: the stack and the project folder, passed on to `pulumi`. */
interface Common {
  readonly stack?: string;
  readonly cwd?: string;
}

export function parseCommandLine(argv: readonly string[]): CommandLine {
  if (argv[0] === "emulator") return { command: "emulator", argv: argv.slice(1) };
  if (argv[0] === "leftovers") return { command: "leftovers", argv: argv.slice(1) };
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help === true || command === "help") return { command: "help" };
  const common: Common = {
    ...(values.stack === undefined ? {} : { stack: nonEmpty("--stack", values.stack) }),
    ...(values.cwd === undefined ? {} : { cwd: nonEmpty("--cwd", values.cwd) }),
  };
  if (command === "preflight") return preflightCommand(rest, values, common);
  if (command === "rekey") return rekeyCommand(rest, values, common);
  if (command === "recover") return recoverCommand(rest, values, common);
  if (command === "policy-pack") return policyPackCommand(rest, values, common);
  throw new UsageError(
    command === undefined
      ? "no command given: use preflight, recover, rekey, leftovers, policy-pack or emulator"
      : `unknown command ${JSON.stringify(command)}: use preflight, recover, rekey, leftovers, policy-pack or emulator`,
  );
}

function preflightCommand(rest: string[], values: Flags, common: Common): CommandLine {
  if (rest.length > 0)
    throw new UsageError(`preflight takes no arguments, got ${JSON.stringify(rest[0])}`);
  if (values.forget !== undefined)
    throw new UsageError("--forget belongs to recover, not preflight");
  if (values["cancel-stale-lock"] !== undefined)
    throw new UsageError("--cancel-stale-lock belongs to recover, not preflight");
  return { command: "preflight", ...common };
}

function rekeyCommand(rest: string[], values: Flags, common: Common): CommandLine {
  if (rest.length > 0)
    throw new UsageError(`rekey takes no arguments, got ${JSON.stringify(rest[0])}`);
  if (values.forget !== undefined || values["cancel-stale-lock"] !== undefined)
    throw new UsageError("--forget and --cancel-stale-lock belong to recover, not rekey");
  return { command: "rekey", ...common };
}

function policyPackCommand(rest: string[], values: Flags, common: Common): CommandLine {
  if (rest.length !== 1) {
    throw new UsageError("policy-pack takes one folder: pulumi-voice-platform policy-pack DIR");
  }
  if (values.stack !== undefined || values.forget !== undefined || values["cancel-stale-lock"]) {
    throw new UsageError("policy-pack takes no --stack, --forget or --cancel-stale-lock");
  }
  return {
    command: "policy-pack",
    dir: nonEmpty("DIR", rest[0]!),
    ...(common.cwd ? { cwd: common.cwd } : {}),
  };
}

function recoverCommand(assignments: string[], values: Flags, common: Common): CommandLine {
  const forget = (values.forget ?? []).map((urn) => urnArgument("--forget", urn));
  for (const assignment of assignments) {
    urnArgument("recover", assignment);
    if (!assignment.includes("=")) {
      throw new UsageError(
        `recover: ${JSON.stringify(assignment)} has no "=ID": write URN=ID with the id the platform shows, or use --forget URN if nothing was created`,
      );
    }
  }
  return {
    command: "recover",
    ...common,
    assignments,
    forget,
    ...(values["cancel-stale-lock"] === true ? { cancelStaleLock: true as const } : {}),
  };
}

function nonEmpty(flag: string, value: string): string {
  if (value.trim() === "")
    throw new UsageError(`${flag} is empty: give a value or leave the flag out`);
  return value;
}

function urnArgument(where: string, value: string): string {
  if (!value.startsWith("urn:pulumi:")) {
    throw new UsageError(
      `${where}: ${JSON.stringify(value)} is not a resource URN (urn:pulumi:...): copy it from the preflight output`,
    );
  }
  return value;
}
