/**
 * The plugin as `npm install pulumi-voice-platform-plugin` gives it: this platform's native
 * package and the plugin package naming it as an optional dependency, packed as `npm run release`
 * packs them (provider/release/npm-packages.ts) and installed from the tarballs into a project of
 * their own, no registry needed. What the engine runs is the project's
 * node_modules/.bin/pulumi-resource-voiceplatform, the plugin package's bin: it picks the native
 * package and links it in its own place at its first start (provider/plugin/package-bin.ts).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { packageVersion } from "../../provider/schema/package-schema";
import {
  packNativePackages,
  packPluginPackage,
  type RepoManifest,
} from "../../provider/release/npm-packages";
import { hostPlatform } from "../../provider/release/plugin-archive";
import { publicAddresses } from "../../provider/release/public-address";
import { installFromTarballs } from "../support/npm-route";
import { REPO_ROOT } from "../support/packed-package";

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
  const repo = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as RepoManifest;
  const plugin = await packPluginPackage({
    repoRoot: REPO_ROOT,
    version,
    platforms: [hostPlatform()],
    addresses,
    repo,
    outDir: tarballs,
  });
  const installed = await installFromTarballs(join(dir, "project"), [native!.file, plugin.file]);
  return installed.bin;
}
