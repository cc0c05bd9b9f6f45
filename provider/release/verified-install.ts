/**
 * How a user installs a plugin archive by hand, checked against the sha256 the release printed
 * first. `sha256sum -c` does the checking: Pulumi CLI 3.248's `pulumi plugin install --checksum`
 * ignores the checksum with `--file`, and with `--server` hashes all but the download's last read,
 * so a right checksum fails (README, "Install the plugin").
 */
import { PLUGIN_NAME } from "./plugin-archive";
import { ReleaseToolError } from "./errors";

/** The one-liner: verify `archive` (a file name in the current folder), then install it. */
export function verifiedInstallCommand(version: string, archive: string, sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256))
    throw new ReleaseToolError("sha256sum", `not a sha256: ${sha256}`);
  if (!/^[\w.-]+$/.test(archive))
    throw new ReleaseToolError("sha256sum", `not a plain file name: ${archive}`);
  const name = PLUGIN_NAME.replace(/^pulumi-resource-/, "");
  return (
    `echo "${sha256}  ${archive}" | sha256sum -c - && ` +
    `pulumi plugin install resource ${name} ${version} --file ${archive}`
  );
}
