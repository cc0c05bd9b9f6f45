/**
 * The root of the package's one error hierarchy, on the ground floor so that every floor's errors
 * can extend it (the platform's `ApiError` family, core's `IncompleteCreateError`, the command's
 * `StackCommandError`), and the error of this floor: a setting that is missing or malformed.
 */

/**
 * The base of every error this package throws on purpose. Each is named after its class; the
 * plugin's bundle keeps class names (esbuild's keepNames), so `name` is right there too.
 */
export class VoicePlatformError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Where a setting comes from: its stack config key and its environment variable. */
export interface SettingSource {
  readonly setting: string;
  readonly key: string;
  readonly env: string;
}

/** A setting that a call needs is missing, or its value cannot be used. */
export class ConfigurationError extends VoicePlatformError {
  readonly setting: string;
  readonly key: string;
  readonly env: string;

  private constructor(source: SettingSource, message: string) {
    super(message);
    this.setting = source.setting;
    this.key = source.key;
    this.env = source.env;
  }

  /** Nobody set it, and `neededFor` needs it: every way to set it. */
  static missing(
    source: SettingSource & { secret?: boolean },
    neededFor: string,
  ): ConfigurationError {
    const secret = source.secret ? " --secret" : "";
    return new ConfigurationError(
      source,
      `${source.key} is not set, and ${neededFor} needs it. Set it with ` +
        `\`pulumi config set${secret} ${source.key} <value>\` (an explicit provider: its ` +
        `\`${source.setting}\` input), or export ${source.env}.`,
    );
  }

  /** A value that breaks `rule` (which says how to fix it); a secret's value is not shown. */
  static breaks(
    source: SettingSource & { secret?: boolean },
    raw: string,
    rule: string,
  ): ConfigurationError {
    const shown = source.secret ? "" : ` is "${raw}", which`;
    return new ConfigurationError(source, `${source.key} (or ${source.env})${shown} ${rule}.`);
  }
}
