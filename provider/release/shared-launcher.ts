/**
 * The native launcher of the Linux and macOS archives (provider/plugin/launcher: the engine starts
 * it per provider, and it hands the engine a provider of the shared server beside it), built for
 * each platform by the Go toolchain from the standard library alone: statically linked, no path
 * of this machine kept (`-trimpath`), no build id, so the same toolchain gives the same bytes.
 * macOS binaries are ad-hoc signed (the linker signs arm64 ones; macho-sign.ts the amd64 ones).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { checkedFormat, type ExecutableFacts } from "./executable-format";
import { goBuild } from "./go-build";
import { machoSignTool, signAdHoc } from "./macho-sign";

const SOURCE_DIR = join(__dirname, "..", "plugin", "launcher");

/** The shared server's file name beside the launcher (the launcher's `serverName`). */
export const SHARED_SERVER_NAME = "pulumi-voiceplatform-server";

/** Platforms whose archive has the launcher in front of the shared server. */
export function hasSharedServer(platform: string): boolean {
  return platform.startsWith("linux-") || platform.startsWith("darwin-");
}

/**
 * Builds the launcher for `platform` at `file` and checks its format; `name` signs a macOS one.
 * `version`, the release's, is what its `--version` says (tests may leave it out).
 */
export async function buildLauncher(
  platform: string,
  file: string,
  name: string,
  toolsFolder: string,
  version?: string,
): Promise<ExecutableFacts> {
  const [goos, goarch] = platform.split("-") as [string, string];
  await goBuild({
    sourceDir: SOURCE_DIR,
    output: file,
    // A semantic version holds no space or quote to escape.
    ldflags: `-s -w -buildid=${version === undefined ? "" : ` -X main.version=${version}`}`,
    target: { goos, goarch },
    withoutGo:
      "the Linux and macOS archives' launcher needs the Go toolchain (go on PATH): install Go, " +
      "or leave those platforms out of --platforms",
    what: `the launcher (provider/plugin/launcher) for ${platform}`,
  });
  // Go's linker signs darwin-arm64 executables ad hoc itself, not darwin-amd64 ones.
  if (platform === "darwin-amd64") {
    await signAdHoc(await machoSignTool(toolsFolder), file, name);
  }
  return checkedFormat(await readFile(file), platform);
}
