/**
 * A fenced block of a page of docs/, found by its section's heading and its language, or the
 * file it names on its first line (`// refusal.test.ts`, `# conftest.py`): the tests that copy
 * snippets into a project take them as the page shows them.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const DOCS = resolve(__dirname, "..", "..", "docs");

/** The heading's level (`###` is 3), or none for a line that is not one or is inside a block. */
function headingLevels(lines: readonly string[]): (number | undefined)[] {
  let fenced = false;
  return lines.map((line) => {
    if (line.startsWith("```")) fenced = !fenced;
    return fenced ? undefined : /^(#+) /.exec(line)?.[1]!.length;
  });
}

/** The text under `heading` (a whole line, `### TypeScript`) up to the next heading as high. */
function sectionOf(page: string, heading: string): string {
  const lines = page.split("\n");
  const levels = headingLevels(lines);
  const start = lines.indexOf(heading);
  const level = levels[start];
  if (start < 0 || level === undefined) throw new Error(`no heading "${heading}"`);
  const end = levels.findIndex(
    (found, index) => index > start && found !== undefined && found <= level,
  );
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

/**
 * The one block of `language` in the section, or the one whose first line is a comment naming
 * `file`; an error when there is none or more than one, so a page's edit cannot pick another.
 */
export function docsBlock(
  pageName: string,
  heading: string,
  wanted: { language: string; file?: string },
): string {
  const page = readFileSync(join(DOCS, pageName), "utf8");
  const blocks = [...sectionOf(page, heading).matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .filter((match) => match[1] === wanted.language)
    .map((match) => match[2]!)
    .filter(
      (text) =>
        wanted.file === undefined ||
        /^(\/\/|#) (\S+)$/m.exec(text.split("\n")[0]!)?.[2] === wanted.file,
    );
  const named = wanted.file === undefined ? "" : ` naming ${wanted.file}`;
  if (blocks.length !== 1) {
    throw new Error(`${pageName} "${heading}": ${blocks.length} ${wanted.language} blocks${named}`);
  }
  return blocks[0]!;
}
