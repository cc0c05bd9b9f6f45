/**
 * @slow Each example's own tests, the ones a team copies and keeps, run as its CI runs them from
 * a copy outside the repository, the package installed from its packed tarball: `npm test` for
 * the TypeScript examples (jest: the program under the package's mocks, and the program against
 * the emulator with the real `pulumi`: a preview sends nothing, `pulumi up --yes` sends one
 * create per object, `pulumi preview --expect-no-changes` passes and sends nothing), `pytest`
 * for the Python one (the same two, with pulumi_voiceplatform.testing and the emulator command).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { nodeSdk, pythonVenv, runTool } from "../languages/toolchains";
import { pulumiEnv } from "../pulumi-cli/locate";
import { npmEnv, packPackage, REPO_ROOT } from "../support/packed-package";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { copyEnvironmentsWithLockfile, copyExampleOut } from "./example-copy";

const run = promisify(execFile);
const { describe: withCli } = requirePulumiCli({
  languageHosts: ["nodejs", "python"],
  purpose: "the examples' own tests",
});

/** A command's output, or an error carrying it (what a failing suite printed). */
async function output(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const { stdout, stderr } = await run(file, args, {
    cwd,
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { message: string; stdout?: string; stderr?: string }) => {
    throw new Error(`${file} ${args.join(" ")} in ${cwd}:\n${error.stdout}${error.stderr}`);
  });
  return `${stdout}${stderr}`;
}

/**
 * The copy's package.json as its README says to install before the release: the package (and the
 * SDK) from their tarballs; then `npm install`, which adds the dev dependencies (jest, ts-jest).
 */
async function installAsReadmeSays(dir: string, tarballs: Record<string, string>) {
  const manifestPath = join(dir, "package.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as {
    dependencies: Record<string, string>;
  };
  for (const [name, tarball] of Object.entries(tarballs)) {
    manifest.dependencies[name] = `file:${tarball}`;
  }
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    env: npmEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
}

withCli("the examples' own tests, from copies outside the repository", () => {
  jest.setTimeout(900_000);

  test.each(["basic", "plugin-typescript"] as const)(
    "examples/%s: npm test passes (the mocks, and the emulator-backed up and preview)",
    async (example) => {
      const copy = await copyExampleOut(example);
      try {
        expect(copy.dir.startsWith(REPO_ROOT)).toBe(false);
        const tarballs: Record<string, string> = { "pulumi-voice-platform": await packPackage() };
        if (example === "plugin-typescript") {
          tarballs["pulumi-voice-platform-sdk"] = (await nodeSdk()).tarball;
        }
        await installAsReadmeSays(copy.dir, tarballs);
        const printed = await output(
          "npm",
          ["test", "--", "--ci", "--colors=false"],
          copy.dir,
          pulumiEnv({ ...npmEnv(), ...copy.env }),
        );
        expect(printed).toMatch(/PASS \.\/program\.test\.ts/);
        expect(printed).toMatch(/PASS \.\/emulator\.test\.ts/);
        expect(printed).toMatch(/Tests: +\d+ passed, \d+ total/);
        // The emulator test removes the stack file it made.
        expect(
          await readFile(join(copy.dir, "Pulumi.emulator-check.yaml")).catch(() => "gone"),
        ).toBe("gone");
      } finally {
        await rm(copy.root, { recursive: true, force: true });
      }
    },
  );

  test("examples/environments: npm ci from its lockfile, then npm test passes", async () => {
    const copy = await copyEnvironmentsWithLockfile();
    try {
      const printed = await output(
        "npm",
        ["test", "--", "--ci", "--colors=false"],
        copy.dir,
        pulumiEnv(npmEnv()),
      );
      expect(printed).toMatch(/PASS \.\/program\.test\.ts/);
      expect(printed).toMatch(/PASS \.\/emulator\.test\.ts/);
      expect(printed).toMatch(/Tests: +\d+ passed, \d+ total/);
    } finally {
      await rm(copy.root, { recursive: true, force: true });
    }
  });

  test("examples/python: pytest passes (the mocks, and the emulator-backed up and preview)", async () => {
    const copy = await copyExampleOut("python");
    // pytest beside the shared virtualenv (which other suites use as it is), as
    // `pip install -r requirements-dev.txt` puts it in a team's.
    const tools = await mkdtemp(join(tmpdir(), "examples-pytest-"));
    try {
      const python = join(await pythonVenv(), "bin", "python");
      await runTool(
        python,
        ["-m", "pip", "install", "--quiet", "--target", tools, "-r", "requirements-dev.txt"],
        { cwd: copy.dir, env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" } },
      );
      const printed = await output(
        python,
        ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
        copy.dir,
        // The copy's PATH holds the installed package's bins: the plugin and the emulator command.
        pulumiEnv({ ...process.env, ...copy.env, PYTHONPATH: tools }),
      );
      expect(printed).toMatch(/\b5 passed\b/);
    } finally {
      await rm(tools, { recursive: true, force: true });
      await rm(copy.root, { recursive: true, force: true });
    }
  });
});
