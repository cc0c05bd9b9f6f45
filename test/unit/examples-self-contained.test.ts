/**
 * Each example can be copied out of the repository and run as it is: it reaches nothing outside
 * its folder, declares its dependencies by version, says in a README what it needs, and commits no
 * stack file holding a secret or a machine's address.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const repo = join(__dirname, "..", "..");
const examplesDir = join(repo, "examples");
const version = (
  JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string }
).version;
const examples = readdirSync(examplesDir).filter((name) =>
  statSync(join(examplesDir, name)).isDirectory(),
);

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (["node_modules", "venv", "__pycache__", ".stamp-out"].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesOf(path) : [path];
  });
}

const programFile = /\.(ts|py|go|ya?ml|json|mod|txt)$/;
const read = (path: string) => readFileSync(path, "utf8");

test.each(examples)("examples/%s has a README", (example) => {
  expect(filesOf(join(examplesDir, example)).map((f) => relative(examplesDir, f))).toContain(
    `${example}/README.md`,
  );
});

test.each(examples)("examples/%s reaches nothing outside its folder", (example) => {
  const leaving = filesOf(join(examplesDir, example))
    .filter((file) => programFile.test(file))
    .flatMap((file) =>
      read(file)
        .split("\n")
        .filter((line) => /(^|["'`\s=(])\.\.\//.test(line))
        .map((line) => `${relative(repo, file)}: ${line.trim()}`),
    );
  expect(leaving).toEqual([]);
});

test("committed stack files hold no secret and no machine's address", () => {
  const stackFiles = examples.flatMap((example) =>
    filesOf(join(examplesDir, example)).filter((file) => /Pulumi\.[^/]+\.yaml$/.test(file)),
  );
  for (const file of stackFiles) {
    const text = read(file);
    expect({ file: relative(repo, file), secret: /secure:|encryptionsalt/.test(text) }).toEqual({
      file: relative(repo, file),
      secret: false,
    });
    expect(text).not.toMatch(/localhost|127\.0\.0\.1|\[::1\]/);
  }
});

test("dependencies are declared by version, as a user's project declares them", () => {
  for (const example of ["basic", "environments", "plugin-typescript"]) {
    const manifest = JSON.parse(read(join(examplesDir, example, "package.json"))) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies["pulumi-voice-platform"]).toBe(`^${version}`);
  }
  expect(read(join(examplesDir, "python", "requirements.txt"))).toMatch(
    new RegExp(`^pulumi_voiceplatform==${version.replace(/\./g, "\\.")}$`, "m"),
  );
  const goMod = read(join(examplesDir, "go", "go.mod"));
  expect(goMod).toMatch(`pulumi-voice-platform/sdk/go v${version}`);
  expect(goMod).not.toMatch(/^replace /m);
});
