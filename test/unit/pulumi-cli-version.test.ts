/**
 * The Pulumi CLI version tests and CI use is one setting, package.json's `config.pulumiCli`, which
 * `PULUMI_CLI_VERSION` overrides: install.sh builds it and test/pulumi-cli/locate.ts finds it by
 * the same rule. Stand-in `pulumi` executables (a script answering `pulumi version`) play the
 * toolchain cache's builds and a CLI on PATH.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { locatePulumi, requestedCliVersion, testedCliVersion } from "../pulumi-cli/locate";
import { missingForPulumiCli } from "../support/require-pulumi-cli";

const REPO_ROOT = join(__dirname, "..", "..");
const INSTALL = join(REPO_ROOT, "test", "pulumi-cli", "install.sh");
const settings = (
  JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    config: Record<"pulumiCli" | "oldestPulumiCli" | "oldestPulumiSdk", string>;
  }
).config;
const pinned = settings.pulumiCli;

/** install.sh --print-version with this environment: its output, or its error. */
function printedVersion(env: NodeJS.ProcessEnv): { status: number | null; out: string } {
  const result = spawnSync("bash", [INSTALL, "--print-version"], { env, encoding: "utf8" });
  return { status: result.status, out: `${result.stdout}${result.stderr}`.trim() };
}

const withoutVersion = () => {
  const env = { ...process.env };
  delete env.PULUMI_CLI_VERSION;
  return env;
};

test("the setting names a plain version, and install.sh and locate.ts read the same one", () => {
  expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  expect(testedCliVersion(withoutVersion())).toBe(pinned);
  expect(printedVersion(withoutVersion())).toEqual({ status: 0, out: pinned });
});

test("PULUMI_CLI_VERSION overrides the setting in both, and anything but a version fails in both", () => {
  const env = { ...withoutVersion(), PULUMI_CLI_VERSION: "v3.146.0" };
  expect(testedCliVersion(env)).toBe("3.146.0");
  expect(printedVersion(env)).toEqual({ status: 0, out: "3.146.0" });
  expect(testedCliVersion({ ...env, PULUMI_CLI_VERSION: "" })).toBe(pinned);

  const bad = { ...env, PULUMI_CLI_VERSION: "latest" };
  expect(() => requestedCliVersion(bad)).toThrow(
    /PULUMI_CLI_VERSION must be a Pulumi CLI version.*such as 3\.274\.1 \(got "latest"\)/,
  );
  expect(printedVersion(bad)).toEqual({
    status: 1,
    out: "[pulumi:install] ERROR: PULUMI_CLI_VERSION must be a Pulumi CLI version such as 3.274.1 (got 'latest').",
  });
});

describe("which CLI the tests run on", () => {
  let root: string;
  const saved = { ...process.env };

  /** A stand-in `pulumi` in `dir` that answers `pulumi version` with `version`. */
  function standIn(dir: string, version: string): string {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "pulumi");
    writeFileSync(file, `#!/bin/sh\n[ "$1" = version ] && echo v${version}\n`);
    chmodSync(file, 0o755);
    return file;
  }

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "pulumi-cli-version-"));
    process.env.VOICEPLATFORM_PULUMI_CLI_CACHE = join(root, "cache");
    standIn(join(root, "cache", "v9.9.1", "bin"), "9.9.1");
    standIn(join(root, "cache", `v${pinned}`, "bin"), pinned);
    standIn(join(root, "on-path"), "9.0.0");
  });

  afterAll(() => {
    process.env = saved;
    rmSync(root, { recursive: true, force: true });
  });

  const located = (env: { PATH: string; PULUMI_CLI_VERSION?: string }) => {
    process.env.PATH = env.PATH;
    if (env.PULUMI_CLI_VERSION === undefined) delete process.env.PULUMI_CLI_VERSION;
    else process.env.PULUMI_CLI_VERSION = env.PULUMI_CLI_VERSION;
    return locatePulumi();
  };
  const systemPath = () => saved.PATH ?? "";

  test("with PULUMI_CLI_VERSION, that version's build, even with another pulumi on PATH", () => {
    const onPath = [join(root, "on-path"), systemPath()].join(delimiter);
    expect(located({ PATH: onPath, PULUMI_CLI_VERSION: "9.9.1" })).toMatchObject({
      version: "9.9.1",
      binDir: join(root, "cache", "v9.9.1", "bin"),
    });
  });

  test("with PULUMI_CLI_VERSION naming a version not built, none, and the message names the command", () => {
    const cli = located({ PATH: systemPath(), PULUMI_CLI_VERSION: "9.9.2" });
    expect(cli).toBeUndefined();
    const missing = missingForPulumiCli(cli);
    expect(missing).toContain("No build of Pulumi CLI 9.9.2 (PULUMI_CLI_VERSION)");
    expect(missing).toContain("toolchain cache");
    expect(missing).toContain("run `PULUMI_CLI_VERSION=9.9.2 npm run pulumi:install`");
  });

  test("without it, a pulumi on PATH first, else the build of the setting's version", () => {
    const onPath = [join(root, "on-path"), systemPath()].join(delimiter);
    expect(located({ PATH: onPath })).toMatchObject({ version: "9.0.0" });
    // A PATH without any pulumi: only the directories of the tools the stand-ins need.
    const noPulumi = ["/usr/bin", "/bin"].join(delimiter);
    expect(
      execFileSync("sh", ["-c", "command -v pulumi || true"], {
        env: { PATH: noPulumi },
      }).toString(),
    ).toBe("");
    expect(located({ PATH: noPulumi })).toMatchObject({
      version: pinned,
      binDir: join(root, "cache", `v${pinned}`, "bin"),
    });
  });
});

test("docs/compatibility.md names the versions the settings hold, so the page moves with them", () => {
  const page = readFileSync(join(REPO_ROOT, "docs", "compatibility.md"), "utf8");
  for (const key of ["pulumiCli", "oldestPulumiCli", "oldestPulumiSdk"] as const) {
    expect(settings[key]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(page).toContain(`${settings[key]} (\`config.${key}\``);
  }
});
