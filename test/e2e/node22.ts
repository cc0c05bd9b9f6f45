/**
 * `npm run test:node22`: the end-to-end suite once more on Node.js 22 with the newest
 * @pulumi/pulumi. The Pulumi CLI is the one every tier runs on (package.json's
 * `config.pulumiCli`, or `PULUMI_CLI_VERSION`; test/pulumi-cli/locate.ts).
 *
 * - Node 22 comes from the npm package `node@22` (it carries the binary), installed once into
 *   `<fixture cache>/node22` (override the directory with E2E_NODE22_DIR).
 * - The newest @pulumi/pulumi is asked of the registry at every run (`npm view @pulumi/pulumi
 *   version`, its `latest` tag), never pinned, unless E2E_PULUMI_VERSION names one; the fixture
 *   projects install it (it needs Node >= 22). The first and the last line of the output name
 *   the Node.js, SDK and CLI versions the run used.
 * - jest runs under Node 22 with Node 22 first on PATH, so the language host, the program and the
 *   dynamic-provider processes all run on it; the lifecycle test checks the program's versions.
 *
 * Extra arguments go to jest: `npm run test:node22 -- -t upgrade`.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { locatePulumi } from "../pulumi-cli/locate";
import { FIXTURE_CACHE_ROOT, REPO_ROOT } from "../support/packed-package";

const run = promisify(execFile);
const NODE_MAJOR = 22;
const NODE_DIR = process.env.E2E_NODE22_DIR ?? join(FIXTURE_CACHE_ROOT, `node${NODE_MAJOR}`);

function say(line: string): void {
  process.stdout.write(`==> ${line}\n`);
}

/** The environment without what an enclosing `npm run` exports (npm reads it back as config). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_(config_(local_)?prefix|package_|lifecycle_)/i.test(name)) continue;
    env[name] = value;
  }
  return env;
}

async function version(node: string): Promise<string | undefined> {
  try {
    return (await run(node, ["--version"])).stdout.trim();
  } catch {
    return undefined;
  }
}

/** A Node 22 binary: the cached one, or `npm install node@22` into NODE_DIR. */
async function ensureNode(): Promise<{ node: string; version: string }> {
  const node = join(NODE_DIR, "node_modules", "node", "bin", "node");
  let found = existsSync(node) ? await version(node) : undefined;
  if (found?.startsWith(`v${NODE_MAJOR}.`) !== true) {
    say(`Installing node@${NODE_MAJOR} from the npm registry into ${NODE_DIR}`);
    await run(
      "npm",
      [
        "install",
        "--prefix",
        NODE_DIR,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `node@${NODE_MAJOR}`,
      ],
      { env: cleanEnv(), maxBuffer: 16 * 1024 * 1024 },
    );
    found = await version(node);
  }
  if (found?.startsWith(`v${NODE_MAJOR}.`) !== true) {
    throw new Error(`${node} is not Node.js ${NODE_MAJOR} (it says ${found ?? "nothing"})`);
  }
  return { node, version: found };
}

async function newestPulumiSdk(): Promise<string> {
  const given = process.env.E2E_PULUMI_VERSION;
  if (given !== undefined && given !== "") return given;
  const { stdout } = await run("npm", ["view", "@pulumi/pulumi", "version", "--loglevel=error"], {
    env: cleanEnv(),
  });
  return stdout.trim();
}

async function main(): Promise<number> {
  const started = Date.now();
  const cli = locatePulumi();
  const [{ node, version: nodeVersion }, sdk] = await Promise.all([
    ensureNode(),
    newestPulumiSdk(),
  ]);
  say(
    `Node.js ${nodeVersion} (${node}), @pulumi/pulumi ${sdk} in the fixture projects, ` +
      `Pulumi CLI ${cli?.version ?? "(none found)"}`,
  );
  const jest = join(REPO_ROOT, "node_modules", "jest", "bin", "jest.js");
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    PATH: [join(NODE_DIR, "node_modules", "node", "bin"), process.env.PATH ?? ""].join(":"),
    E2E_PULUMI_VERSION: sdk,
    E2E_EXPECT_NODE_VERSION: nodeVersion,
  };
  const code = await new Promise<number>((resolve, reject) => {
    // The files about the state backend and interrupted runs (the CLI killed, a backend that
    // never answers, a live update's lock, a checkpoint a kill left empty, the GitOps steps, the
    // ledger's stores on the shared backends) check what Pulumi's CLI and backends do, which no
    // Node version changes; `add-a-resource` checks the docs' steps for a new resource (files,
    // generators, a copy's unit tier, typecheck and lint), which no Node version changes either.
    // They are long, and the engine tier runs them once already (docs/development.md, "Tests
    // moved or run once").
    // Two workers, as the engine tier runs: its files wait on the CLI and the emulator much of
    // the time.
    const args = [
      "test/e2e",
      "--maxWorkers=2",
      "--testPathIgnorePatterns",
      "/(interrupted-|postgres-|backend-|ledger-stores|gitops-|stuck-backend|live-update-lock|killed-checkpoint-|add-a-resource)",
    ];
    const child = spawn(node, [jest, ...args, ...process.argv.slice(2)], {
      cwd: REPO_ROOT,
      env,
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("exit", (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
  say(
    `${code === 0 ? "Passed" : "FAILED"} on Node.js ${nodeVersion} with @pulumi/pulumi ${sdk} ` +
      `(CLI ${cli?.version ?? "none"}) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `test:node22 failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
