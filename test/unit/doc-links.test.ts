/**
 * Every relative link of the README and the pages under docs/ resolves: the file or folder it
 * names exists, and an anchor (`#configuration`, `lifecycle.md#limitations`) is a heading of the
 * page it points into, as GitHub names headings. Links inside code are not links.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const REPO_ROOT = join(__dirname, "..", "..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

const pages = [join(REPO_ROOT, "README.md"), ...markdownFiles(join(REPO_ROOT, "docs"))];

/** The text without fenced code blocks, inline code and HTML comments. */
function prose(text: string): string {
  return text
    .replace(/^```[\s\S]*?^```/gm, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/`[^`\n]*`/g, "code");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = headingAnchor(heading!);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Each relative link of a page: `[text](target)`, with its target as written. */
function relativeLinks(file: string): string[] {
  const targets = [...prose(readFileSync(file, "utf8")).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
  return [...new Set(targets)];
}

function problemOf(file: string, target: string): string | undefined {
  const [path, anchor] = target.split("#", 2) as [string, string | undefined];
  const resolved = path === "" ? file : join(dirname(file), decodeURIComponent(path));
  if (!existsSync(resolved)) return `${target}: no such file or folder`;
  if (anchor === undefined || anchor === "") return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith(".md"))
    return `${target}: an anchor into something that is no Markdown page`;
  return anchorsOf(resolved).has(anchor)
    ? undefined
    : `${target}: ${relative(REPO_ROOT, resolved)} has no heading #${anchor}`;
}

test("the README and docs/ are found, with links to check", () => {
  expect(pages.map((page) => relative(REPO_ROOT, page))).toEqual(
    expect.arrayContaining(["README.md", "docs/_index.md", "docs/installation-configuration.md"]),
  );
  expect(pages.flatMap(relativeLinks).length).toBeGreaterThan(20);
});

test.each(pages.map((page) => [relative(REPO_ROOT, page), page] as const))(
  "every relative link of %s resolves",
  (_name, page) => {
    const broken = relativeLinks(page).flatMap((target) => problemOf(page, target) ?? []);
    expect(broken).toEqual([]);
  },
);

test("a link to a missing page or heading is found broken", () => {
  const readme = join(REPO_ROOT, "README.md");
  expect(problemOf(readme, "docs/no-such-page.md")).toMatch(/no such file/);
  expect(problemOf(readme, "#no-such-heading")).toMatch(/has no heading/);
  expect(problemOf(readme, "#get-started")).toBeUndefined();
  expect(headingAnchor("Import, `get` and refresh")).toBe("import-get-and-refresh");
});
