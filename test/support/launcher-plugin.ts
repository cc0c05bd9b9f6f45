/**
 * The release's plugin on Linux and macOS as a test lays it out: a folder holding the native
 * launcher (provider/plugin/launcher, built with Go) and, beside it where the archive puts the
 * single executable, the shared server: here a script running a packed package's npm bin.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hostPlatform, PLUGIN_NAME } from "../../provider/release/plugin-archive";
import { buildLauncher, SHARED_SERVER_NAME } from "../../provider/release/shared-launcher";
import { defaultToolsFolder } from "../../provider/release/tools-folder";

export interface LauncherPlugin {
  /** The launcher, what the engine starts per provider. */
  readonly launcher: string;
  /** The project's npm bin, which serves as the shared server (and alone, a process per provider). */
  readonly npmBin: string;
}

/** Lays the plugin out in `<scratch>/plugin`, serving from the package installed in `project`. */
export async function launcherPlugin(scratch: string, project: string): Promise<LauncherPlugin> {
  const pluginDir = join(scratch, "plugin");
  await mkdir(pluginDir);
  const launcher = join(pluginDir, PLUGIN_NAME);
  await buildLauncher(hostPlatform(), launcher, PLUGIN_NAME, defaultToolsFolder());
  const npmBin = join(project, "node_modules", ".bin", PLUGIN_NAME);
  await writeFile(join(pluginDir, SHARED_SERVER_NAME), `#!/bin/sh\nexec "${npmBin}" "$@"\n`, {
    mode: 0o755,
  });
  return { launcher, npmBin };
}
