/**
 * @slow: the unit tier of a whole copy of the repository, with the generators before it.
 *
 * docs/development.md, "Add a resource", as a new engineer follows it: in a copy of the
 * repository (its tracked files, committed in a git repository of its own), a scratch
 * `PhoneNumber` with two inputs is added by writing only the files the section lists
 * (test/e2e/scratch-resource holds them), the generators run, and the unit tier passes with the
 * new kind walked by every test that walks the resources; the copy typechecks and lints. The SDKs
 * are generated too: gen-sdk needs the Pulumi CLI and its language hosts, no network.
 */
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { pulumiEnv, REPO_ROOT } from "../pulumi-cli/locate";
import { describeE2E } from "./harness";

const run = promisify(execFile);
const SCRATCH = join(__dirname, "scratch-resource");
const KIND = "phone-number";

/** The files "Add a resource" lists, `<kind>` filled in. */
function filesTheDocsList(): string[] {
  const docs = readFileSync(join(REPO_ROOT, "docs", "development.md"), "utf8");
  const section = docs.split("\n## Add a resource\n")[1]?.split("\n## ")[0] ?? "";
  return [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((match) =>
    match[1]!.replace("<kind>", KIND),
  );
}

/** What the scratch resource writes: whole files, and the two lines of the resources list. */
function addPhoneNumber(copy: string): string[] {
  const whole: Record<string, string> = {
    [`provider/resources/${KIND}.ts`]: "phone-number.resource.txt",
    [`provider/emulator/routes/${KIND}.ts`]: "phone-number.route.txt",
    [`test/fixtures/kinds/${KIND}.ts`]: "phone-number.fixture.txt",
  };
  for (const [target, source] of Object.entries(whole)) {
    writeFileSync(join(copy, target), readFileSync(join(SCRATCH, source)));
  }
  const list = join(copy, "provider", "resources", "index.ts");
  const before = readFileSync(list, "utf8");
  const after = before
    .replace(
      /^(import \{ voice \} from "\.\/voice";)$/m,
      '$1\nimport { phoneNumber } from "./phone-number";',
    )
    .replace(/^(export const resources = \[[^\]]*)\] as const;$/m, "$1, phoneNumber] as const;");
  expect(after.split("\n").length - before.split("\n").length).toBe(1);
  expect(after).toContain("phoneNumber] as const;");
  writeFileSync(list, after);
  return [...Object.keys(whole), "provider/resources/index.ts"];
}

/**
 * `env` without the times file of the run this test is in: the copy's jest runs would add their
 * unit tier to this run's times, and .ci/run would count it against the unit tier's budget.
 */
function ownTimes(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { VOICEPLATFORM_TEST_TIMES: _times, VOICEPLATFORM_TEST_LANE: _lane, ...rest } = env;
  return rest;
}

async function npm(copy: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const started = Date.now();
  try {
    const { stdout } = await run("npm", args, {
      cwd: copy,
      env: ownTimes(env),
      maxBuffer: 64 * 1024 * 1024,
    });
    console.log(`npm ${args.join(" ")}: ${Date.now() - started} ms`);
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `npm ${args.join(" ")} failed:\n${stdout ?? ""}\n${stderr ?? ""}`.slice(-20_000),
    );
  }
}

async function git(copy: string, args: string[]): Promise<string> {
  const { stdout } = await run(
    "git",
    ["-c", "user.name=scratch", "-c", "user.email=scratch@example.com", ...args],
    { cwd: copy, maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

describeE2E("adding a resource as docs/development.md says", () => {
  let copy: string;

  beforeAll(async () => {
    copy = mkdtempSync(join(tmpdir(), "voiceplatform-add-a-resource-"));
    const tracked = (
      await run("git", ["ls-files", "-z"], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 })
    ).stdout
      .split("\0")
      .filter((file) => file !== "" && existsSync(join(REPO_ROOT, file)));
    for (const file of tracked) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(REPO_ROOT, file), join(copy, file));
    }
    // The installed packages are a toolchain cache; the copy uses the repository's.
    symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"), "dir");
    await git(copy, ["init", "-q"]);
    await git(copy, ["add", "-A"]);
    await git(copy, ["commit", "-q", "-m", "the repository as it is"]);
  });

  afterAll(() => {
    if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
  });

  test("the files the docs list, the generators, and the unit tier passes with the new kind", async () => {
    const listed = filesTheDocsList();
    expect(listed).toHaveLength(4);
    const written = addPhoneNumber(copy);
    expect([...written].sort()).toEqual([...listed].sort());

    await npm(copy, ["run", "args"]);
    await npm(copy, ["run", "sdk:generate"], pulumiEnv());
    await npm(copy, ["run", "docs"]);

    // Everything else that changed, the generators wrote.
    const changed = (await git(copy, ["status", "--porcelain", "--untracked-files=all"]))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => line.slice(3));
    const generated = changed.filter((file) => !written.includes(file));
    expect(generated).toEqual(
      expect.arrayContaining([
        `provider/dynamic/generated/${KIND}-stub.ts`,
        "provider/sdk/schema.json",
        "provider/sdk/python/pulumi_voiceplatform/testing.py",
        "docs/api-docs/phonenumber.md",
      ]),
    );
    console.log(`hand-written: ${written.join(", ")}\ngenerated: ${generated.length} files`);

    // jest transpiles without type checks: the typecheck and lint a commit needs run too.
    await npm(copy, ["run", "typecheck"]);
    await npm(copy, ["run", "lint"]);
    const unit = await npm(copy, ["run", "test:unit", "--", "--json", "--outputFile=unit.json"]);
    expect(unit).toBeDefined();
    const report = JSON.parse(readFileSync(join(copy, "unit.json"), "utf8")) as {
      success: boolean;
      numFailedTests: number;
      numTotalTests: number;
      testResults: { name: string; assertionResults: { fullName: string }[] }[];
    };
    expect({ success: report.success, failed: report.numFailedTests }).toEqual({
      success: true,
      failed: 0,
    });
    // The new kind was walked, not skipped: its own property tests and fixture test ran.
    const names = report.testResults.flatMap((file) =>
      file.assertionResults.map((t) => t.fullName),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        "PhoneNumber check never throws on, and never accepts, hostile changes to a valid input",
        `PhoneNumber has valid inputs and an id in test/fixtures/kinds/${KIND}.ts`,
        "PhoneNumber the one body holds exactly the fields the API spec lists",
      ]),
    );
  });
});
