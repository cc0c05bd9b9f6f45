/**
 * release.json: what a release folder holds, written last, for what publishes it (the workflow,
 * `npm run release:publish`): the version and tag, the public address and whether it is the
 * placeholder, every artifact by kind in the order it is published, and the Go module's path and
 * tag. Paths are relative to the release folder. docs/development.md ("The release folder")
 * shows one.
 */
import { writeFile } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import type { PublicAddresses } from "./public-address";
import { ReleaseToolError } from "./errors";

export const MANIFEST_FILE = "release.json";

export interface ReleaseManifest {
  readonly version: string;
  readonly tag: string;
  readonly publicAddress: { readonly address: string; readonly placeholder: boolean };
  readonly repository: string;
  readonly pluginDownloadURL: string;
  readonly plugin: { readonly archives: readonly string[]; readonly checksums: string };
  /** In the order to publish them: the native packages and the SDK before the package. */
  readonly npm: readonly {
    readonly name: string;
    readonly version: string;
    readonly file: string;
  }[];
  readonly python: { readonly version: string; readonly files: readonly string[] };
  readonly go: {
    readonly dir: string;
    readonly modulePath: string;
    readonly version: string;
    readonly tag: string;
    readonly tarball: string;
  };
}

/** The version the wheel's name carries (PEP 440's spelling of the release's). */
export function pythonVersionOf(wheel: string): string {
  const match = /^pulumi_voiceplatform-([^-]+)-/.exec(basename(wheel));
  if (match === null)
    throw new ReleaseToolError("python -m build", `${wheel} is not a pulumi_voiceplatform wheel`);
  return match[1]!;
}

/** `file` relative to the release folder `out`, with `/` between folders. */
export function inRelease(out: string, file: string): string {
  return relative(out, file).split(sep).join("/");
}

export interface ManifestInputs {
  readonly out: string;
  readonly version: string;
  readonly addresses: PublicAddresses;
  readonly pluginDownloadURL: string;
  readonly archives: readonly string[];
  readonly checksums: string;
  readonly npm: readonly {
    readonly name: string;
    readonly version: string;
    readonly file: string;
  }[];
  readonly python: readonly string[];
  readonly go: { dir: string; modulePath: string; tag: string; tarball: string };
}

export function releaseManifest(inputs: ManifestInputs): ReleaseManifest {
  const at = (file: string) => inRelease(inputs.out, file);
  const wheel = inputs.python.find((file) => file.endsWith(".whl"));
  if (wheel === undefined)
    throw new ReleaseToolError("python -m build", "the release built no wheel");
  return {
    version: inputs.version,
    tag: `v${inputs.version}`,
    publicAddress: {
      address: inputs.addresses.address,
      placeholder: inputs.addresses.placeholder,
    },
    repository: inputs.addresses.repository,
    pluginDownloadURL: inputs.pluginDownloadURL,
    plugin: { archives: inputs.archives.map(at), checksums: at(inputs.checksums) },
    npm: inputs.npm.map((pkg) => ({ ...pkg, file: at(pkg.file) })),
    python: { version: pythonVersionOf(wheel), files: inputs.python.map(at) },
    go: {
      dir: at(inputs.go.dir),
      modulePath: inputs.go.modulePath,
      version: `v${inputs.version}`,
      tag: inputs.go.tag,
      tarball: at(inputs.go.tarball),
    },
  };
}

export async function writeReleaseManifest(out: string, manifest: ReleaseManifest): Promise<void> {
  await writeFile(join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}
