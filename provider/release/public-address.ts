/**
 * Where the project lives in public, one setting every public address derives from.
 * Measured behaviour: docs/development.md#what-npm-run-release-builds
 */
import { ReleaseInputError } from "./errors";

/** The placeholder the setting holds until the project's home is known. */
export const PLACEHOLDER_PUBLIC_ADDRESS = "placeholder.invalid/owner/pulumi-voice-platform";

/** THE setting: the project's GitHub repository, `github.com/<owner>/<repo>`. */
export const PUBLIC_ADDRESS: string = PLACEHOLDER_PUBLIC_ADDRESS;

/** The Go SDK's folder in the repository: its module path is `<address>/<this>`. */
export const GO_SDK_FOLDER = "provider/sdk/go";

/** GitHub's rules for an owner (user or organization) and a repository name. */
const GITHUB_ADDRESS =
  /^github\.com\/([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;

export interface PublicAddresses {
  /** `github.com/<owner>/<repo>`. */
  readonly address: string;
  /** Whether it is still the placeholder: nothing may be published with it. */
  readonly placeholder: boolean;
  /** `https://github.com/<owner>/<repo>`: the schema's and the packages' repository. */
  readonly repository: string;
  /** npm's `repository.url`. */
  readonly gitUrl: string;
  /** The README on GitHub: the packages' homepage. */
  readonly homepage: string;
  /** Where bugs are reported: npm's `bugs`. */
  readonly issues: string;
  /**
   * The plugin archives' folder: the GitHub release of the version's tag. `${VERSION}` is left
   * for the engine, which fills it in (so the SDKs of one release need not name it twice).
   */
  readonly pluginDownloadURL: string;
}

/**
 * Throws, naming the option and the fix, unless `address` is a GitHub repository's address (or
 * the placeholder).
 */
export function checkPublicAddress(address: string, option = "PUBLIC_ADDRESS"): void {
  if (address === PLACEHOLDER_PUBLIC_ADDRESS) return;
  const match = GITHUB_ADDRESS.exec(address);
  if (match === null || match[2] === "." || match[2] === "..") {
    throw new ReleaseInputError(
      option,
      `${option} ${JSON.stringify(address)} is not a GitHub repository's address: give it as ` +
        `github.com/<owner>/<repo> (no scheme, no trailing slash), e.g. ` +
        `github.com/acme/pulumi-voice-platform.`,
    );
  }
}

/** Every public address derived from `address` (default the setting). */
export function publicAddresses(address: string = PUBLIC_ADDRESS): PublicAddresses {
  checkPublicAddress(address);
  const repository = `https://${address}`;
  return {
    address,
    placeholder: address === PLACEHOLDER_PUBLIC_ADDRESS,
    repository,
    gitUrl: `git+${repository}.git`,
    homepage: `${repository}#readme`,
    issues: `${repository}/issues`,
    pluginDownloadURL: `${repository}/releases/download/v\${VERSION}`,
  };
}

/**
 * The Go SDK's module path for `version`: `<address>/provider/sdk/go`, and from v2 on with the
 * major version appended, as Go's module rules require (`.../go/v2`).
 */
export function goModulePath(address: string, version: string): string {
  const major = Number(version.split(".")[0]);
  const base = `${address}/${GO_SDK_FOLDER}`;
  return major >= 2 ? `${base}/v${major}` : base;
}

/** The tag Go finds the module's version by: `provider/sdk/go/v<version>`. */
export function goModuleTag(version: string): string {
  return `${GO_SDK_FOLDER}/v${version}`;
}

/** Throws unless `addresses` may be published: the placeholder may not. */
export function refusePlaceholder(addresses: PublicAddresses, what: string): void {
  if (!addresses.placeholder) return;
  throw new ReleaseInputError(
    "PUBLIC_ADDRESS",
    `${what} with the placeholder public address ${addresses.address}: every module path, ` +
      `pluginDownloadURL and link would point at nothing. Set PUBLIC_ADDRESS in ` +
      `provider/release/public-address.ts to the project's GitHub repository ` +
      `(github.com/<owner>/<repo>), or build with --dry-run.`,
  );
}
