/**
 * How the package's bin runs the plugin bundle: through V8's code cache, kept per user, so a
 * plugin process after the first skips compiling the bundle's 2.4 MB (the single executables
 * start from a startup snapshot instead). The cache is written a second after start, by when the
 * first calls have compiled what they use, into
 * `${XDG_CACHE_HOME:-~/.cache}/pulumi-voice-platform/code-cache` (a private folder: made 0700,
 * used only while it is a real folder owned by the user with no access for others), one file per
 * bundle and Node.js version. V8 checks a cache against the source and its own version and
 * flags, and compiles from the source when it does not match; any failure to read or write the
 * cache only costs the time it would have saved. `VOICEPLATFORM_CODE_CACHE=off` turns it off.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/** The per-user cache folder, or undefined when it is not private (then no cache is used). */
function privateCacheFolder(): string | undefined {
  const folder = join(
    process.env.XDG_CACHE_HOME || join(homedir(), ".cache"),
    "pulumi-voice-platform",
    "code-cache",
  );
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const info = lstatSync(folder);
    if (!info.isDirectory()) return undefined;
    if (
      process.getuid !== undefined &&
      (info.uid !== process.getuid() || (info.mode & 0o077) !== 0)
    )
      return undefined;
    return folder;
  } catch {
    return undefined;
  }
}

/** Runs the CommonJS file `file` as `require` would, its compiled code cached between runs. */
export function runWithCodeCache(file: string): void {
  const bytes = readFileSync(file);
  const folder = process.env.VOICEPLATFORM_CODE_CACHE === "off" ? undefined : privateCacheFolder();
  const key = createHash("sha256")
    .update(`${process.version} ${process.arch}\n`)
    .update(bytes)
    .digest("hex")
    .slice(0, 32);
  const cacheFile = folder === undefined ? undefined : join(folder, `${basename(file)}-${key}`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile !== undefined) cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet.
  }
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${bytes.toString("utf8")}\n})`,
    { filename: file, ...(cachedData === undefined ? {} : { cachedData }) },
  );
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    setTimeout(() => {
      try {
        const temporary = `${cacheFile}.${process.pid}`;
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, cacheFile);
      } catch {
        // Not written: the next start compiles again.
      }
    }, 1000).unref();
  }
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dirname(file));
}
