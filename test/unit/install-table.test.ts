/**
 * The install tables of the README and docs/installation-configuration.md say what each kind of
 * program runs; test/release/installed-by-name.test.ts runs the programs of by-name-programs.ts
 * against registry stand-ins. This keeps the two the same: every row's command is what its
 * program runs, word for word (the program adds only pins and a report file).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { byNamePrograms, type ProgramName } from "../release/by-name-programs";

const REPO_ROOT = join(__dirname, "..", "..");
const VERSION = "0.1.0";
const ADDRESS = "example.com/owner/repo";
/** How the tables write the public address: it is a setting of the release, unknown here. */
const ADDRESS_PLACEHOLDERS = ["<public address>", "github.com/<owner>/<repo>"];

const rowProgram: Record<string, ProgramName> = {
  "TypeScript, dynamic resources": "typescript-dynamic",
  "TypeScript through the plugin": "typescript-plugin",
  YAML: "yaml",
  Python: "python",
  Go: "go",
};

/** The rows of the first table whose header starts `| Your program`: label → the first command. */
function installRows(file: string): Map<string, string> {
  const lines = readFileSync(join(REPO_ROOT, file), "utf8").split("\n");
  const header = lines.findIndex((line) => line.startsWith("| Your program"));
  expect(header).toBeGreaterThanOrEqual(0);
  const rows = new Map<string, string>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const [label, what] = line
      .split("|")
      .slice(1, 3)
      .map((cell) => cell.trim());
    const command = /`([^`]+)`/.exec(what ?? "")?.[1];
    if (label !== undefined && command !== undefined) rows.set(label, command);
  }
  return rows;
}

/** Whether `words` appear in `argv` in order (other arguments may stand between them). */
function inOrder(words: readonly string[], argv: readonly string[]): boolean {
  let at = 0;
  for (const arg of argv) if (arg === words[at]) at += 1;
  return at === words.length;
}

const programs = byNamePrograms({
  pulumiVersion: "3.0.0",
  version: VERSION,
  goModulePath: `${ADDRESS}/provider/sdk/go`,
});

describe.each(["README.md", "docs/installation-configuration.md"])("%s's install table", (file) => {
  const rows = installRows(file);

  test("has a row for each program the by-name test runs, and no other", () => {
    expect([...rows.keys()].map((label) => rowProgram[label]).sort()).toEqual(
      programs.map((program) => program.name).sort(),
    );
  });

  test.each(Object.entries(rowProgram))("the %s row is what its program runs", (label, name) => {
    const documented = rows.get(label);
    expect(documented).toBeDefined();
    const program = programs.find((candidate) => candidate.name === name)!;
    const words = ADDRESS_PLACEHOLDERS.reduce(
      (text, placeholder) => text.replace(placeholder, ADDRESS),
      documented!,
    ).split(/\s+/);
    const ran = program.install.map((argv) => argv.map((arg) => arg.replace(/@3\.0\.0$/, "")));
    // pip runs from the program's virtualenv: the documented `pip` is that one.
    const runs = ran.some((argv) =>
      inOrder(
        words,
        argv.map((arg) => (arg.endsWith("/bin/pip") ? "pip" : arg)),
      ),
    );
    expect({ documented, runs }).toEqual({ documented, runs: true });
  });
});
