/**
 * The release's one version, from its tag: `v1.2.3` (or `v1.2.3-rc.1`) gives 1.2.3, which every
 * artifact then carries: the plugin's GetPluginInfo and `--version`, the archives' names, each npm
 * package's package.json, the Python package, the SDKs' pulumi-plugin.json and the Go module's
 * tag. Without a tag the version in package.json is used (a build for testing).
 */
import { ReleaseInputError } from "./errors";

/** Semantic Versioning 2.0.0, the expression semver.org gives, anchored. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** The version a tag names; throws, naming the option, the problem and the fix, for any other. */
export function versionFromTag(tag: string): string {
  const version = tag.startsWith("v") ? tag.slice(1) : undefined;
  if (version === undefined || !SEMVER.test(version)) {
    throw new ReleaseInputError(
      "--tag",
      `--tag ${JSON.stringify(tag)} is not a version tag: give v<major>.<minor>.<patch>, with a ` +
        `pre-release after a dash if any (v1.2.0, v1.2.0-rc.1), as the release workflow does ` +
        `with the tag it runs for.`,
    );
  }
  if (version.includes("+")) {
    throw new ReleaseInputError(
      "--tag",
      `--tag ${tag} carries build metadata (+${version.split("+")[1]}): npm and PyPI drop it, so ` +
        `the artifacts could not all carry one version. Tag without it.`,
    );
  }
  return version;
}
