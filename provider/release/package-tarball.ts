/**
 * This package's own npm tarball, built and packed in a copy of the working tree.
 * Measured behaviour: docs/development.md#this-packages-own-tarball
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** What `npm run build` reads besides the files npm packs. */
const BUILD_INPUTS = ["package.json", "tsconfig.json", "tsconfig.build.json", "provider"];

/**
 * The paths to copy: the build's inputs, and every entry of package.json's `files` that the build
 * does not make (under dist/), with the LICENSE npm always packs.
 */
export async function stagedPaths(repoRoot: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as {
    files?: string[];
  };
  const packed = (manifest.files ?? []).filter((path) => !/^(\.\/)?dist(\/|$)/.test(path));
  const paths = [...new Set([...BUILD_INPUTS, ...packed, "LICENSE"])];
  return paths.filter((path) => existsSync(join(repoRoot, path)));
}

/** node_modules hard-linked (instant, no space), or copied where links cannot be made. */
async function linkNodeModules(from: string, to: string): Promise<void> {
  if (process.platform !== "win32") {
    const linked = await run("cp", ["-al", from, to]).then(
      () => true,
      () => false,
    );
    if (linked) return;
    await rm(to, { recursive: true, force: true });
  }
  await cp(from, to, { recursive: true, verbatimSymlinks: true });
}

/** Writes `fields` over the package.json in `dir`, keeping the order of the fields it has. */
async function writeManifestFields(dir: string, fields: Record<string, unknown>): Promise<void> {
  const file = join(dir, "package.json");
  const manifest = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  await writeFile(file, `${JSON.stringify({ ...manifest, ...fields }, null, 2)}\n`);
}

/**
 * Packs the package built from `repoRoot`'s working tree into `outDir`, with `fields` written
 * over its package.json; returns the tarball.
 */
export async function packThisPackage(
  repoRoot: string,
  outDir: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const stage = await mkdtemp(join(tmpdir(), "voiceplatform-release-package-"));
  try {
    const copy = join(stage, "package");
    await mkdir(copy);
    for (const path of await stagedPaths(repoRoot)) {
      await cp(join(repoRoot, path), join(copy, path), { recursive: true });
    }
    if (Object.keys(fields).length > 0) await writeManifestFields(copy, fields);
    await linkNodeModules(join(repoRoot, "node_modules"), join(copy, "node_modules"));
    // `prepare` builds dist/ in the copy.
    const packed = await run(
      "npm",
      ["pack", "--pack-destination", outDir, "--json", "--loglevel=error"],
      { cwd: copy, maxBuffer: 64 * 1024 * 1024 },
    );
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    return join(outDir, filename);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
