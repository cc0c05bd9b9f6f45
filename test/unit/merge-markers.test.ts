/**
 * No tracked text file keeps a merge's conflict markers. Prettier rewrites a Markdown file's
 * `>>>>>>>` line as a quote (`> > > > > > >`), which then reads as prose: both forms are caught.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const REPO_ROOT = join(__dirname, "..", "..");
const MARKER = /^(<{7} |={7}$|>{7} |(> ){6}>)/m;
const TEXT = /\.(ts|js|mjs|cjs|md|json|ya?ml|sh|py|go|toml|txt)$|(^|\/)(run|Makefile)$/;

test("no tracked text file holds a merge conflict marker", () => {
  const files = execFileSync("git", ["ls-files"], { cwd: REPO_ROOT, encoding: "utf8" })
    .split("\n")
    .filter((file) => TEXT.test(file) && !file.startsWith("provider/sdk/"));
  expect(files.length).toBeGreaterThan(100);
  const marked = files.filter((file) => MARKER.test(readFileSync(join(REPO_ROOT, file), "utf8")));
  expect(marked).toEqual([]);
});
