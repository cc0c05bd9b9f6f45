/**
 * Each example can be copied out of the repository and run as it is: it reaches nothing outside
 * its folder, declares its dependencies by version, says in a README what it needs, and commits no
 * stack file holding a secret or a machine's address.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
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

describe("examples/environments installs as a team's project does", () => {
  const dir = join(examplesDir, "environments");
  const manifest = JSON.parse(read(join(dir, "package.json"))) as {
    dependencies: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  type Lockfile = {
    lockfileVersion: number;
    packages: Record<
      string,
      {
        version?: string;
        resolved?: string;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      }
    >;
  };
  /** Read in each test, so that each says for itself what a missing lockfile breaks. */
  const readLock = () => JSON.parse(read(join(dir, "package-lock.json"))) as Lockfile;

  test("tsx, which runs stamp-out.ts, is a dev dependency", () => {
    expect(manifest.devDependencies?.tsx).toMatch(/^\^4\./);
  });

  test("its lockfile is the one npm ci installs from: the same dependencies, each locked", () => {
    const lock = readLock();
    expect(lock.lockfileVersion).toBe(3);
    const root = lock.packages[""]!;
    expect(root.dependencies).toEqual(manifest.dependencies);
    expect(root.devDependencies).toEqual(manifest.devDependencies);
    for (const name of [...Object.keys(manifest.dependencies), "tsx"]) {
      expect({ name, locked: lock.packages[`node_modules/${name}`]?.version }).toEqual({
        name,
        locked: expect.any(String),
      });
    }
    // The package at this version, with the dependencies it declares now, and the CLI's SDK that
    // the tests run it with.
    const repoManifest = JSON.parse(read(join(repo, "package.json"))) as {
      dependencies: Record<string, string>;
    };
    const own = lock.packages["node_modules/pulumi-voice-platform"]!;
    expect(own.version).toBe(version);
    expect(own.dependencies).toEqual(repoManifest.dependencies);
    const repoLock = JSON.parse(read(join(repo, "package-lock.json"))) as Lockfile;
    expect(lock.packages["node_modules/@pulumi/pulumi"]!.version).toBe(
      repoLock.packages["node_modules/@pulumi/pulumi"]!.version,
    );
    // No registry's address: npm takes each package from the registry the user configures.
    expect(Object.values(lock.packages).filter((entry) => entry.resolved !== undefined)).toEqual(
      [],
    );
  });

  test("its own .gitignore, in a repository of its own, ignores what npm ci and a trial stamp-out write", () => {
    const copy = mkdtempSync(join(tmpdir(), "environments-gitignore-"));
    try {
      expect(spawnSync("git", ["init", "-q"], { cwd: copy }).status).toBe(0);
      copyFileSync(join(dir, ".gitignore"), join(copy, ".gitignore"));
      const ignored = (path: string) =>
        spawnSync("git", ["check-ignore", "--no-index", "-q", path], { cwd: copy }).status === 0;
      for (const path of [
        "node_modules/tsx/package.json",
        ".stamp-out/.pulumi/meta.yaml",
        "Pulumi.sub-a.yaml",
      ]) {
        expect({ path, ignored: ignored(path) }).toEqual({ path, ignored: true });
      }
      for (const path of ["package-lock.json", "Pulumi.dev.yaml", "stamp-out.ts"]) {
        expect({ path, ignored: ignored(path) }).toEqual({ path, ignored: false });
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
