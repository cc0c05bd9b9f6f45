/**
 * `npm run build`'s step after tsc: zod inside the package instead of a dependency. The zod
 * package is 6.3 MB installed (its TypeScript sources, an ES module and a CommonJS build, the
 * declarations of each, zod 3 and zod mini), of which the package loads only the CommonJS build of
 * `zod` and, for its declarations, the CommonJS declarations: 1.6 MB. This copies just those files,
 * the ones reachable from zod's own `index.cjs` and `index.d.cts`, unchanged, into
 * dist/provider/vendor/zod/ with zod's LICENSE, and points every `"zod"` of dist/ there. The
 * sources, tests and the plugin's bundle keep importing `zod` (a devDependency). A maintainer's
 * tool, run from the sources by tsx: provider/release is not built into dist/.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";

const DIST = join(__dirname, "..", "..", "dist", "provider");
export const VENDOR_FOLDER = join(DIST, "vendor", "zod");
const ZOD = dirname(require.resolve("zod/package.json"));

/**
 * The relative specifiers a zod file loads: `require("./x.cjs")` in its code, `from "../y.cjs"` or
 * `import("./z.cjs")` in its declarations (a comment's `import … from` in the code is not one).
 */
function relativeSpecifiers(text: string, declarations: boolean): string[] {
  const pattern = declarations
    ? /(?:from |import\()"(\.{1,2}\/[^"]+)"/g
    : /require\("(\.{1,2}\/[^"]+)"\)/g;
  return [...text.matchAll(pattern)].map((m) => m[1]!);
}

/** Every file reachable from `entry` (relative to zod's folder) through relative specifiers. */
function reachable(entry: string, declarations: boolean): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of relativeSpecifiers(
      readFileSync(join(ZOD, file), "utf8"),
      declarations,
    )) {
      const target = posix.join(posix.dirname(file), specifier);
      pending.push(declarations ? target.replace(/\.cjs$/, ".d.cts") : target);
    }
  }
  return seen;
}

/** Copies zod's reachable CommonJS files and declarations; returns how many. */
function copyZod(): number {
  const files = new Set([
    ...reachable("index.cjs", false),
    ...reachable("index.d.cts", true),
    "LICENSE",
  ]);
  for (const file of files) {
    mkdirSync(dirname(join(VENDOR_FOLDER, file)), { recursive: true });
    copyFileSync(join(ZOD, file), join(VENDOR_FOLDER, file));
  }
  return files.size;
}

/** dist/'s .js and .d.ts files, the vendored copy left out. */
function distFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === dirname(VENDOR_FOLDER) ? [] : distFiles(path);
    return /\.(js|d\.ts)$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Points each `"zod"` of dist/ at the copy: its imports, and the declarations' augmentation of
 * zod's GlobalMeta (core/field-facts.ts). Returns how many files changed.
 */
function pointAtCopy(): number {
  let changed = 0;
  for (const file of distFiles(DIST)) {
    const text = readFileSync(file, "utf8");
    const copy = relative(dirname(file), join(VENDOR_FOLDER, "index.cjs")).split(sep).join("/");
    const rewritten = text.replace(
      /(require\(|from |import\(|declare module )"zod"/g,
      (_, before: string) => `${before}"${copy.startsWith(".") ? copy : `./${copy}`}"`,
    );
    if (rewritten !== text) {
      writeFileSync(file, rewritten);
      changed += 1;
    }
  }
  return changed;
}

if (require.main === module) {
  try {
    // Silent when it works: `npm pack --json` prints the build's output before its JSON.
    if (copyZod() === 0 || pointAtCopy() === 0) {
      throw new Error(`no file of ${DIST} names "zod": was tsc run first?`);
    }
  } catch (error) {
    process.stderr.write(`vendoring zod failed: ${String(error)}\n`);
    process.exitCode = 1;
  }
}
