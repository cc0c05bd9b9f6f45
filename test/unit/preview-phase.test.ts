/**
 * No test or example may hide the preview phase users run: `--skip-preview`, `skipPreview` and
 * the Automation API's `stack.up()` (which always passes `--skip-preview`) are allowed only with
 * a reason, a "because" on the same line or in the comment just above it. Comments that only
 * mention them are not uses.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(__dirname, "..", "..");
const scanned = ["test", "examples"];
const sourceFile = /\.(ts|js|py|go|ya?ml|sh)$/;
const hidesPreview = /--skip-preview|skipPreview|\b\w*[sS]tack\.up\(/;
const REASON_WINDOW = 3;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ["node_modules", "venv", "golden"].includes(entry.name) ? [] : files(path);
    return sourceFile.test(entry.name) ? [path] : [];
  });
}

/** Each `file:line` that hides the preview phase without saying why. */
export function unexplainedSkips(path: string, text: string): string[] {
  const lines = text.split("\n");
  return lines.flatMap((line, index) => {
    if (!hidesPreview.test(line) || /^\s*(\*|\/\/|#)/.test(line)) return [];
    const context = lines.slice(Math.max(0, index - REASON_WINDOW), index + 1).join("\n");
    return /\bbecause\b/i.test(context) ? [] : [`${path}:${index + 1}: ${line.trim()}`];
  });
}

test("the scan sees an unexplained skip, and accepts one that says why", () => {
  expect(unexplainedSkips("a.ts", 'run(["up", "--yes", "--skip-preview"]);')).toHaveLength(1);
  expect(unexplainedSkips("a.ts", "const up = await stack.up(options);")).toHaveLength(1);
  expect(
    unexplainedSkips(
      "a.ts",
      '// --skip-preview because it times the update\nrun(["--skip-preview"]);',
    ),
  ).toEqual([]);
});

test("no test or example skips the preview phase without saying why", () => {
  const self = relative(root, __filename);
  const found = scanned
    .flatMap((dir) => files(join(root, dir)))
    .map((path) => relative(root, path))
    .filter((path) => path !== self)
    .flatMap((path) => unexplainedSkips(path, readFileSync(join(root, path), "utf8")));
  expect(found).toEqual([]);
});
