/**
 * The command's errors in the package's one hierarchy (rooted in settings/errors.ts); main.ts
 * chooses each one's exit status.
 */
import { VoicePlatformError } from "../settings/errors";

/**
 * The `pulumi-voice-platform` command could not do what it was asked: the Pulumi CLI is missing,
 * or the stack is not what it expects. Its message says what to do.
 */
export class StackCommandError extends VoicePlatformError {}

/** A command line that cannot run; the message names the argument and the fix. */
export class UsageError extends StackCommandError {}

/** The stack named to the `pulumi-voice-platform` command does not exist on the backend. */
export class StackNotFoundError extends StackCommandError {}

/**
 * The `pulumi-voice-platform` command could not read the stack's state or locks from the backend
 * (or run the Pulumi CLI that reads them); nothing was changed. Its message names what to check.
 */
export class BackendReadError extends StackCommandError {}

/**
 * A setting of the command (an environment variable) that cannot be used; like a bad command
 * line, it is the job's to fix, and nothing was read or changed.
 */
export class CommandSettingError extends StackCommandError {}

/**
 * The state backend's client, an optional peer dependency, is not installed (backend-clients.ts).
 * The job's to fix, like a setting: nothing was read or changed. `install` is the command.
 */
export class BackendClientMissing extends CommandSettingError {
  constructor(
    message: string,
    readonly install: string,
  ) {
    super(message);
  }
}

/**
 * A read of the state backend (a `pulumi` run, a read of the locks) passed its deadline and was
 * stopped (backends/backend-deadline.ts). Its message names the backend, the limit and what to
 * check.
 */
export class BackendTimeoutError extends BackendReadError {}

/** Refused: nothing was written. The message names the argument and what to do. */
export class RecoveryRefused extends StackCommandError {}

/** Refused because an update that may still run holds the stack's lock. */
export class LockedRefusal extends RecoveryRefused {}

/** A `pulumi` run that failed; the message carries what it printed. */
export class PulumiCliError extends StackCommandError {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    exit: string,
  ) {
    super(`\`pulumi ${args.join(" ")}\` failed (${exit}): ${stderr.trim() || "no output"}`);
  }

  /** A lock (file backends) or an update in progress (Pulumi Cloud) stood in the way. */
  get isLocked(): boolean {
    return /currently locked|currently in progress/i.test(this.stderr);
  }

  /** `no stack named '…' found` (exit code 6 on CLI 3.248). */
  get isStackNotFound(): boolean {
    return /no stack named '[^']*' found/.test(this.stderr);
  }

  /**
   * Pulumi's PostgreSQL backend creates its table the first time a `pulumi` opens a new database;
   * two opening it at once race in PostgreSQL's `CREATE TABLE IF NOT EXISTS`, and the loser fails
   * before doing anything (a duplicate key in pg_type, or the relation already exists). Once
   * one has won, the table is there: the same command succeeds when run again.
   */
  get isBackendTableRace(): boolean {
    return /failed to create table [^\n]*(pg_type_typname_nsp_index|already exists)/.test(
      this.stderr,
    );
  }

  /**
   * `write ".pulumi/meta.yaml": …`: a diy backend writes that file the first time it is opened,
   * only when it holds no stack yet (pkg/backend/diy/meta.go at v3.248.0), and read-only
   * credentials (a pull request's preview) cannot. So the backend has no stack at all. CLI
   * 3.274.1 on Azure Blob crashes in that write instead of reporting it (a nil pointer in the
   * blob writer's Close after the refused upload): its stack trace runs through ensurePulumiMeta.
   */
  get isNewBackendUnwritable(): boolean {
    return (
      /write "\.pulumi\/meta\.yaml"/.test(this.stderr) ||
      (/^Panic:/m.test(this.stderr) && /backend\/diy\.ensurePulumiMeta\(/.test(this.stderr))
    );
  }
}
