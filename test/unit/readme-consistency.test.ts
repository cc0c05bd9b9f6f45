/**
 * Statements the README (and now the pages under docs/ it links to) once made in two
 * contradicting ways. Each check names the one the package stands by, so a sentence that brings
 * the other back fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const REPO_ROOT = join(__dirname, "..", "..");

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? markdownUnder(join(dir, entry.name))
      : entry.name.endsWith(".md")
        ? [join(dir, entry.name)]
        : [],
  );
}

const docs = [join(REPO_ROOT, "README.md"), ...markdownUnder(join(REPO_ROOT, "docs"))]
  .map((file) => readFileSync(file, "utf8"))
  .join("\n\n");
const sentences = docs
  .replace(/```[\s\S]*?```/g, "")
  .split(/(?<=[.!?])\s+|\n\s*\n/)
  .map((sentence) => sentence.replace(/\s+/g, " ").trim());

const saying = (pattern: RegExp) => sentences.filter((sentence) => pattern.test(sentence));

test("pnpm works: no sentence refuses it", () => {
  expect(saying(/pnpm/i).length).toBeGreaterThan(0);
  expect(saying(/pnpm[^.]*(hides|not supported|does not work|refuse)|use npm or yarn/i)).toEqual(
    [],
  );
});

test("C# is not supported: it is never listed among the languages", () => {
  expect(saying(/C# is not supported/)).toHaveLength(1);
  const listing = saying(/(YAML|Python|Go|TypeScript)[^.]*C#|C#[^.]*(YAML|Python|TypeScript)/);
  expect(listing.filter((sentence) => !/not (supported|generated)/.test(sentence))).toEqual([]);
});

test("import: the plugin imports by id, so nothing says there is no import", () => {
  expect(
    saying(/pulumi import voiceplatform:index:/).length + saying(/imports? an object by id/).length,
  ).toBeGreaterThan(0);
  expect(saying(/\bno import\b/i)).toEqual([]);
});
