/**
 * `npm run test:compat`: the suites that matter run on the oldest Pulumi the README promises,
 * before each release. The versions are settings of their own, package.json's
 * `config.oldestPulumiCli` and `config.oldestPulumiSdk`:
 *
 * - that CLI is built into the toolchain cache when missing (`PULUMI_CLI_VERSION=<it> npm run
 *   pulumi:install`, with the same language hosts as every build), and the suites run on it
 *   (`PULUMI_CLI_VERSION` makes the harness take that build, whatever is on PATH);
 * - every fixture project installs that @pulumi/pulumi (`E2E_PULUMI_VERSION`): the dynamic
 *   resources' program and the plugin run on it;
 * - the suites: the dynamic resources' lifecycle (test/e2e/lifecycle.test.ts), a YAML program
 *   through the plugin with `preflight` on its stack (test/languages/yaml-programs.test.ts), and
 *   `preflight` against a live update's lock (test/e2e/live-update-lock.test.ts). `CI` is set, so a
 *   suite that cannot run fails instead of skipping.
 *
 * It ends with the line docs/compatibility.md records: versions, tests passed, minutes.
 * Extra arguments go to jest: `npm run test:compat -- -t lifecycle`.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pulumiVersionSettings, REPO_ROOT } from "./locate";

const SUITES = [
  "test/e2e/lifecycle.test.ts",
  "test/languages/yaml-programs.test.ts",
  "test/e2e/live-update-lock.test.ts",
];

function say(line: string): void {
  process.stdout.write(`==> ${line}\n`);
}

/** The oldest versions the settings name; a missing one is an error naming the setting. */
function oldestVersions(): { cli: string; sdk: string } {
  const { oldestPulumiCli: cli, oldestPulumiSdk: sdk } = pulumiVersionSettings();
  if (cli === undefined || sdk === undefined) {
    throw new Error(
      "package.json's config must name oldestPulumiCli and oldestPulumiSdk, the versions the README promises",
    );
  }
  return { cli, sdk };
}

/** Runs a command with inherited output; resolves with its exit code. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
}

interface JestSummary {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
}

async function main(): Promise<number> {
  const started = Date.now();
  const { cli, sdk } = oldestVersions();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CI: process.env.CI || "true",
    PULUMI_CLI_VERSION: cli,
    E2E_PULUMI_VERSION: sdk,
  };
  say(`Pulumi CLI ${cli} (building it when the toolchain cache has none)`);
  const installed = await run("bash", [join(REPO_ROOT, "test", "pulumi-cli", "install.sh")], env);
  if (installed !== 0) return installed;

  const outDir = await mkdtemp(join(tmpdir(), "voice-platform-compat-"));
  const results = join(outDir, "results.json");
  let code: number;
  let summary: JestSummary | undefined;
  try {
    say(`${SUITES.join(", ")} on CLI ${cli} with @pulumi/pulumi ${sdk}`);
    const jest = join(REPO_ROOT, "node_modules", "jest", "bin", "jest.js");
    code = await run(
      process.execPath,
      [
        jest,
        ...SUITES,
        "--maxWorkers=2",
        "--json",
        "--outputFile",
        results,
        ...process.argv.slice(2),
      ],
      env,
    );
    summary = JSON.parse(await readFile(results, "utf8").catch(() => "null")) as JestSummary;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const counts =
    summary === undefined || summary === null
      ? "no jest results"
      : `${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${summary.numPendingTests} skipped`;
  say(
    `${code === 0 ? "Passed" : "FAILED"}: Pulumi CLI ${cli}, @pulumi/pulumi ${sdk}, ` +
      `Node.js ${process.version}: ${counts} in ${minutes} min`,
  );
  return code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `test:compat failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
