/**
 * The install tables of the README and docs/installation-configuration.md say what each kind of
 * program runs; test/release/installed-by-name.test.ts runs the programs of by-name-programs.ts
 * against registry stand-ins. This keeps the two the same: every command a row gives (`npm`,
 * `pip`, `go`, `pulumi`) is what its program runs, word for word (the program adds only pins and a
 * report file), and every `key: value` it gives is a line of its program's files.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { byNamePrograms, type ByNameProgram, type ProgramName } from "../release/by-name-programs";

const REPO_ROOT = join(__dirname, "..", "..");
const VERSION = "0.1.0";
const ADDRESS = "example.com/owner/repo";
/** How the tables write the public address: it is a setting of the release, unknown here. */
const ADDRESS_PLACEHOLDERS = ["<public address>", "github.com/<owner>/<repo>"];

const rowProgram: Record<string, ProgramName> = {
  "TypeScript, dynamic resources": "typescript-dynamic",
  "TypeScript through the plugin": "typescript-plugin",
  "YAML, plugin from the release": "yaml-engine",
  "YAML, plugin on PATH": "yaml",
  Python: "python",
  Go: "go",
};

/** The rows of the first table whose header starts `| Your program`: label → its code spans. */
function installRows(file: string): Map<string, string[]> {
  const lines = readFileSync(join(REPO_ROOT, file), "utf8").split("\n");
  const header = lines.findIndex((line) => line.startsWith("| Your program"));
  expect(header).toBeGreaterThanOrEqual(0);
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const [label, what] = line
      .split("|")
      .slice(1, 3)
      .map((cell) => cell.trim());
    const spans = [...(what ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    if (label !== undefined) rows.set(label, spans);
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
  pluginDownloadURL: `https://${ADDRESS}/releases/download/v${VERSION}`,
});

/** The span with the public address in the placeholders' place. */
function withAddress(span: string): string {
  return ADDRESS_PLACEHOLDERS.reduce(
    (text, placeholder) => text.replace(placeholder, ADDRESS),
    span,
  );
}

/** Whether the program runs `span`, a command, word for word. */
function runsCommand(program: ByNameProgram, span: string): boolean {
  const words = withAddress(span).split(/\s+/);
  const ran = program.install.map((argv) => argv.map((arg) => arg.replace(/@3\.0\.0$/, "")));
  // pip runs from the program's virtualenv: the documented `pip` is that one.
  return ran.some((argv) =>
    inOrder(
      words,
      argv.map((arg) => (arg.endsWith("/bin/pip") ? "pip" : arg)),
    ),
  );
}

/** Whether `span`, a `key: value`, is a line of one of the program's files. */
function inFiles(program: ByNameProgram, span: string): boolean {
  const line = withAddress(span);
  return Object.values(program.files).some(
    (text) => typeof text === "string" && text.split("\n").some((l) => l.trim() === line),
  );
}

const COMMAND = /^(npm|pip|go|pulumi) /;
const SETTING = /^[A-Za-z]+: \S/;

describe.each(["README.md", "docs/installation-configuration.md"])("%s's install table", (file) => {
  const rows = installRows(file);

  test("has a row for each program the by-name test runs, and no other", () => {
    expect([...rows.keys()].map((label) => rowProgram[label]).sort()).toEqual(
      programs.map((program) => program.name).sort(),
    );
  });

  test.each(Object.entries(rowProgram))("the %s row is what its program runs", (label, name) => {
    const spans = rows.get(label);
    expect(spans).toBeDefined();
    const program = programs.find((candidate) => candidate.name === name)!;
    const checked = spans!.filter((span) => COMMAND.test(span) || SETTING.test(span));
    expect(checked.length).toBeGreaterThan(0);
    const found = checked.map((span) => ({
      span,
      found: COMMAND.test(span) ? runsCommand(program, span) : inFiles(program, span),
    }));
    expect(found).toEqual(checked.map((span) => ({ span, found: true })));
  });
});
