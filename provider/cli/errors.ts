/**
 * The command's errors in the package's one hierarchy (rooted in settings/errors.ts); main.ts
 * chooses each one's exit status.
 */
import { VoicePlatformError } from "../settings/errors";

/**
 * The `pulumi-voice-platform` command could not do what it was asked: the Pulumi CLI is missing,
 * or the stack is not what it expects. Its message says what to do.
 */
export class StackCommandError extends VoicePlatformError {
  override readonly name: string = "StackCommandError";
}

/** The stack named to the `pulumi-voice-platform` command does not exist on the backend. */
export class StackNotFoundError extends StackCommandError {
  override readonly name: string = "StackNotFoundError";
}

/**
 * The `pulumi-voice-platform` command could not read the stack's state or locks from the backend
 * (or run the Pulumi CLI that reads them); nothing was changed. Its message names what to check.
 */
export class BackendReadError extends StackCommandError {
  override readonly name: string = "BackendReadError";
}

/**
 * A setting of the command (an environment variable) that cannot be used; like a bad command
 * line, it is the job's to fix, and nothing was read or changed.
 */
export class CommandSettingError extends StackCommandError {
  override readonly name: string = "CommandSettingError";
}

/**
 * A read of the state backend (a `pulumi` run, a read of the locks) passed its deadline and was
 * stopped (backend-deadline.ts). Its message names the backend, the limit and what to check.
 */
export class BackendTimeoutError extends BackendReadError {
  override readonly name: string = "BackendTimeoutError";
}
