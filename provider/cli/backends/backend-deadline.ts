/**
 * The deadline of every read the commands make of the state backend: each `pulumi` run (stack
 * export, whoami, stack ls, and the writes stack import and cancel) and each read of the stack's
 * locks. A backend that accepts connections and never answers (a paused or overloaded server, a
 * proxy holding the connection) would otherwise hold the pipeline, and the stack's deploy queue,
 * until the CI's own job limit. The limit is read here only, from the environment, at call time.
 */
import { CommandSettingError } from "../errors";

/** The environment variable that sets the limit, in seconds. */
export const BACKEND_TIMEOUT_VARIABLE = "VOICEPLATFORM_BACKEND_TIMEOUT_SECONDS";

/** A `pulumi` start and a state of several MB over a slow link fit well within it. */
export const DEFAULT_BACKEND_TIMEOUT_SECONDS = 30;

const BOUNDS = { min: 1, max: 600 } as const;

/** One read's deadline: its length and the signal that aborts the read when it has passed. */
export interface BackendDeadline {
  readonly seconds: number;
  readonly signal: AbortSignal;
}

/** The limit of one read; a value that is not one is refused, naming the variable and the fix. */
export function backendTimeoutSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[BACKEND_TIMEOUT_VARIABLE]?.trim();
  if (raw === undefined || raw === "") return DEFAULT_BACKEND_TIMEOUT_SECONDS;
  const seconds = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds >= BOUNDS.min && seconds <= BOUNDS.max)) {
    throw new CommandSettingError(
      `${BACKEND_TIMEOUT_VARIABLE} is "${raw}": it must be a number of seconds from ${BOUNDS.min} to ${BOUNDS.max}, the longest one read of the state backend may take (e.g. 60); unset it for the default, ${DEFAULT_BACKEND_TIMEOUT_SECONDS}`,
    );
  }
  return seconds;
}

/** A deadline starting now, for one read. */
export function backendDeadline(env: NodeJS.ProcessEnv = process.env): BackendDeadline {
  const seconds = backendTimeoutSeconds(env);
  return { seconds, signal: AbortSignal.timeout(seconds * 1000) };
}

/** How a message names the limit that passed, and how to change it. */
export function limitText(deadline: BackendDeadline): string {
  return `${deadline.seconds} s (${BACKEND_TIMEOUT_VARIABLE})`;
}

/**
 * A limit of one step inside a read (connecting, one attempt of a request), never past the
 * read's own deadline, in milliseconds.
 */
export function stepMilliseconds(stepSeconds: number, deadline: BackendDeadline): number {
  return Math.min(stepSeconds, deadline.seconds) * 1000;
}
