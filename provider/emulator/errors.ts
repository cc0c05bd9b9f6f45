/**
 * The emulator's errors, in the package's one hierarchy (rooted in settings/errors.ts).
 */
import { VoicePlatformError } from "../settings/errors";
import type { ErrorBody } from "./control-types";

/**
 * The emulator cannot do what it was asked: options it cannot use, a state file it cannot read,
 * a control call it refused. The message names what was wrong and the fix.
 */
export class EmulatorError extends VoicePlatformError {}

/**
 * An error answer to an API or control request (status, code, message and the field at fault),
 * thrown where the request is refused and written as the one error body by the server. It never
 * leaves the emulator: a client sees the answer, not the error.
 */
export class ErrorAnswer extends EmulatorError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    const error: ErrorBody["error"] = {
      status: this.status,
      code: this.code,
      message: this.message,
    };
    if (this.field !== undefined) error.field = this.field;
    return { error };
  }
}

/** 405 for a known path asked with another method, naming the methods it takes (Allow header too). */
export function methodNotAllowed(
  method: string,
  path: string,
  allowed: readonly string[],
): ErrorAnswer {
  const list = allowed.join(", ");
  return new ErrorAnswer(
    405,
    "method_not_allowed",
    `${method} is not allowed on ${path}; allowed: ${list}.`,
    undefined,
    { allow: list },
  );
}
