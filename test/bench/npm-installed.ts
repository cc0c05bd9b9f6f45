/**
 * The plugin as `npm install pulumi-voice-platform` gives it: this platform's native package and
 * the package naming it as an optional dependency, packed as `npm run release` packs them
 * (provider/release/npm-packages.ts, package-tarball.ts) and installed from the tarballs into a
 * project of their own, no registry needed. What the engine runs is the project's
 * node_modules/.bin/pulumi-resource-voiceplatform, the package's bin: it picks the native package
 * and links it in its own place at its first start (provider/plugin/package-bin.ts).
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { packageVersion } from "../../provider/codegen/schema";
import { mainManifestFields, packNativePackages } from "../../provider/release/npm-packages";
import { packThisPackage } from "../../provider/release/package-tarball";
import { hostPlatform, PLUGIN_NAME } from "../../provider/release/plugin-archive";
import { publicAddresses } from "../../provider/release/public-address";
import { REPO_ROOT } from "../support/packed-package";

const run = promisify(execFile);

/** The installed package's bin, the plugin archive `archive` of this platform as its native one. */
export async function npmInstalledPlugin(archive: string, dir: string): Promise<string> {
  const version = packageVersion();
  const addresses = publicAddresses();
  const tarballs = join(dir, "tarballs");
  const [native] = await packNativePackages({
    archives: [{ platform: hostPlatform(), file: archive }],
    version,
    addresses,
    license: join(REPO_ROOT, "LICENSE"),
    outDir: tarballs,
  });
  const main = await packThisPackage(
    REPO_ROOT,
    tarballs,
    mainManifestFields(version, [hostPlatform()], addresses),
  );
  const project = join(dir, "project");
  await mkdir(project, { recursive: true });
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "npm-installed-plugin", private: true }),
  );
  // The pinned @pulumi/pulumi, the package's peer, as a user's project has it.
  const pulumi = JSON.parse(
    await readFile(join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
  ) as { version: string };
  await run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      native!.file,
      main,
      `@pulumi/pulumi@${pulumi.version}`,
    ],
    { cwd: project, maxBuffer: 16 * 1024 * 1024 },
  );
  return join(project, "node_modules", ".bin", PLUGIN_NAME);
}
