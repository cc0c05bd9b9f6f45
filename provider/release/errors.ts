/**
 * The release tools' errors in the package's one hierarchy (rooted in settings/errors.ts), one
 * class per thing the person running the release does about it.
 */
import { VoicePlatformError } from "../settings/errors";

/** `npm run release` or `npm run release:publish` stopped; nothing after the failing step ran. */
export class ReleaseError extends VoicePlatformError {}

/**
 * An option, environment variable or folder given to the release cannot be used. `input` names
 * it (`--tag`, `SOURCE_DATE_EPOCH`): fix it and run again.
 */
export class ReleaseInputError extends ReleaseError {
  constructor(
    readonly input: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Publishing was refused: the release folder is not the one that was built (not whole, changed),
 * a target already holds this version with other bytes, or a placeholder address would go public.
 * `artifact` names the file, package or module; the message says whether to build the release
 * again, publish it under a new version, or clear the target.
 */
export class PublishRefusal extends ReleaseError {
  constructor(
    readonly artifact: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A build or publishing tool (go, npm, twine, python -m build, the Node.js single-executable
 * build, the signer) failed, or what it made is not what the release expects. `tool` names it;
 * the message carries its output: fix the toolchain or the cause it names, and run again.
 */
export class ReleaseToolError extends ReleaseError {
  constructor(
    readonly tool: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
