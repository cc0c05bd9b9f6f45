/**
 * The ad-hoc signer for the darwin single executable: provider/release/macho-sign, a small Go
 * program on github.com/blacktop/go-macho (fetched by the Go toolchain from the module proxy,
 * checked against the committed go.sum), built into the release's private tools folder and
 * reused while its sources are unchanged. A release machine without Go cannot sign: it builds
 * the other platforms (`--platforms`), or signs on macOS with `codesign --sign -` instead.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { goBuild } from "./go-build";
import { ReleaseToolError } from "./errors";

const run = promisify(execFile);

const SOURCE_DIR = join(__dirname, "macho-sign");
const SOURCES = ["main.go", "go.mod", "go.sum"];

/** The signer's path in `toolsFolder`, built there first when missing. */
export async function machoSignTool(toolsFolder: string): Promise<string> {
  const hash = createHash("sha256");
  for (const name of SOURCES) hash.update(await readFile(join(SOURCE_DIR, name)));
  const tool = join(toolsFolder, `macho-sign-${hash.digest("hex").slice(0, 16)}`, "macho-sign");
  const built = await access(tool).then(
    () => true,
    () => false,
  );
  if (built) return tool;
  await goBuild({
    sourceDir: SOURCE_DIR,
    output: tool,
    withoutGo:
      "signing the darwin single executable needs the Go toolchain (go on PATH) to build " +
      "provider/release/macho-sign: install Go, or leave darwin-amd64 out of --platforms",
    what: "provider/release/macho-sign",
  });
  return tool;
}

/** Gives the Mach-O file at `file` an ad-hoc signature named `identifier`. */
export async function signAdHoc(tool: string, file: string, identifier: string): Promise<void> {
  await run(tool, [file, identifier]).catch((error: { stderr?: string }) => {
    throw new ReleaseToolError(tool, `ad-hoc signing ${file} failed: ${error.stderr}`);
  });
}
