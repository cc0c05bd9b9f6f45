/**
 * Issue 38: a state backend that accepts connections and never answers. Before, `preflight` hung
 * for as long as the Pulumi CLI waited on it (645 s on S3), and left that `pulumi` running when
 * killed. Each throwaway server (moto for S3, Azurite for Azure Blob, PostgreSQL) is frozen with
 * SIGSTOP, so the kernel still accepts its connections and nothing answers them, and a loopback
 * listener that never answers stands in for all three; the limit is set to 2 s through
 * VOICEPLATFORM_BACKEND_TIMEOUT_SECONDS, as a team would set it:
 *
 * - preflight, recover and rekey, as the bin runs them with the real CLI, exit 5 within the limit,
 *   naming the backend, and leave no `pulumi` process and no backup behind;
 * - the lock read each of them makes after `stack export` has the same deadline;
 * - once the server runs again, the stack reads as before.
 *
 * @slow about 2 minutes: three servers started, frozen and thawed
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { BACKEND_TIMEOUT_VARIABLE } from "../../provider/cli/backends/backend-deadline";
import { BackendTimeoutError } from "../../provider/cli/errors";
import type { ExportedStack } from "../../provider/cli/state/exported-state";
import { preflight } from "../../provider/cli/commands/preflight";
import { recover } from "../../provider/cli/commands/recover";
import { rekey } from "../../provider/cli/commands/rekey";
import type { StackAccess } from "../../provider/cli/backends/stack-lock";
import { pulumiEnv, REPO_ROOT } from "../pulumi-cli/locate";
import { silentListener } from "../support/free-port";
import {
  backendRequirement,
  startBackend,
  type BackendKind,
  type ThrowawayBackend,
} from "../support/throwaway-backend";
import { describeE2E, PASSPHRASE } from "./harness";

const run = promisify(execFile);

const LIMIT_SECONDS = 2;
/**
 * The most a command may take at a 2 s limit before the test calls it stuck: the limit, and node's
 * and `pulumi`'s starts on a loaded 2-core machine. Before the fix it was 645 s.
 */
const BOUND_SECONDS = 30;
const BIN = join(REPO_ROOT, "dist", "provider", "cli", "main.js");
const PROJECT = "voice-stuck";

const LABEL: Record<BackendKind, string> = {
  s3: "S3-compatible (moto)",
  azblob: "Azure Blob (Azurite)",
  postgres: "PostgreSQL",
};
/** How the message names each kind of backend, before its host. */
const NAMED: Record<BackendKind, string> = {
  s3: 'the S3 bucket "stuck" at http://',
  azblob: 'the Azure Blob container "stuck" at http://',
  postgres: "the PostgreSQL server at ",
};

/** The loopback host and port a backend URL names. */
function hostOf(url: string): string {
  return /127\.0\.0\.1:\d+/.exec(decodeURIComponent(url))![0];
}

/** A project folder with its own Pulumi home: nothing but Pulumi.yaml is needed to read a stack. */
function projectFolder(): { dir: string; home: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), "voice-platform-stuck-"));
  const dir = join(root, "project");
  const home = join(root, "home");
  mkdirSync(dir);
  mkdirSync(home);
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime: nodejs\n`);
  return { dir, home, remove: () => rmSync(root, { recursive: true, force: true }) };
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** The bin, as a pipeline runs it; killed (and so failed) only if it outlives 120 s. */
async function voicePlatform(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Ran> {
  const started = Date.now();
  const done = (code: number, stdout: string, stderr: string): Ran => ({
    code,
    stdout,
    stderr,
    seconds: (Date.now() - started) / 1000,
  });
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env,
      cwd,
      timeout: 120_000,
      killSignal: "SIGKILL",
    });
    return done(0, stdout, stderr);
  } catch (error) {
    const { code, signal, stdout, stderr } = error as {
      code: number | null;
      signal: string | null;
      stdout: string;
      stderr: string;
    };
    return done(code ?? -1, stdout, `${stderr}${signal === null ? "" : `\n[killed: ${signal}]`}`);
  }
}

/** Every process whose command line names the stack: a `pulumi` the command left behind. */
async function processesOf(stack: string): Promise<string[]> {
  const { stdout } = await run("ps", ["-eo", "pid,args"]);
  return stdout.split("\n").filter((line) => line.includes(`--stack ${stack}`));
}

/** A URN of the stack, for recover's --forget (it is never reached: the first read fails). */
const someUrn = (stack: string) =>
  `urn:pulumi:${stack}::${PROJECT}::pulumi-nodejs:dynamic/voiceplatform:SipCarrier::trunk`;

function commandsFor(stack: string): [string, string[]][] {
  return [
    ["preflight", ["preflight", "--stack", stack]],
    ["recover", ["recover", "--stack", stack, "--forget", someUrn(stack)]],
    ["rekey", ["rekey", "--stack", stack]],
  ];
}

/** Sets variables of this process for the in-process readers; returns what restores them. */
function withEnv(values: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

for (const kind of ["s3", "azblob", "postgres"] as const) {
  describeE2E(
    `a frozen ${LABEL[kind]} backend (issue 38)`,
    () => {
      const stack = `stuck-${kind}`;
      let backend: ThrowawayBackend;
      let url: string;
      let project: ReturnType<typeof projectFolder>;
      let env: NodeJS.ProcessEnv;
      let exported: ExportedStack;

      beforeAll(async () => {
        backend = await startBackend(kind);
        url = await backend.createStore("stuck");
        project = projectFolder();
        env = pulumiEnv({
          ...process.env,
          ...backend.env,
          PULUMI_BACKEND_URL: url,
          PULUMI_HOME: project.home,
          PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        });
        const pulumi = (args: string[]) => run("pulumi", args, { cwd: project.dir, env });
        await pulumi(["stack", "init", stack, "--non-interactive"]);
        exported = JSON.parse(
          (await pulumi(["stack", "export", "--stack", stack])).stdout,
        ) as ExportedStack;
      });

      afterAll(async () => {
        await backend?.stop();
        project?.remove();
      });

      test("preflight, recover and rekey exit 5 within the limit, naming the backend, and leave nothing behind", async () => {
        // Answering, the backend holds the stack: what follows is the freeze's doing.
        expect(
          await voicePlatform(["preflight", "--stack", stack], env, project.dir),
        ).toMatchObject({ code: 0 });
        const limited = { ...env, [BACKEND_TIMEOUT_VARIABLE]: String(LIMIT_SECONDS) };

        const thaw = backend.pause();
        const report: string[] = [];
        let example = "";
        try {
          for (const [name, args] of commandsFor(stack)) {
            const stuck = await voicePlatform(args, limited, project.dir);
            expect({ name, code: stuck.code, stderr: stuck.stderr }).toEqual({
              name,
              code: 5,
              stderr: expect.stringContaining(
                `did not finish within ${LIMIT_SECONDS} s (${BACKEND_TIMEOUT_VARIABLE}) and was stopped: ${NAMED[kind]}`,
              ) as unknown,
            });
            expect(stuck.stderr).toMatch(`${hostOf(url)}`);
            expect(stuck.stderr).toMatch("Check that the backend runs and answers");
            expect(stuck.seconds).toBeLessThan(BOUND_SECONDS);
            expect(await processesOf(stack)).toEqual([]);
            expect(existsSync(join(project.dir, ".pulumi-voice-platform"))).toBe(false);
            report.push(`  ${name}: exit ${stuck.code} after ${stuck.seconds.toFixed(1)} s`);
            example = stuck.stderr.trim();
          }
        } finally {
          thaw();
        }
        // The frozen time left nothing on the stack: it reads as before, with the default limit.
        expect(
          await voicePlatform(["preflight", "--stack", stack], env, project.dir),
        ).toMatchObject({ code: 0 });
        console.log(
          [`${LABEL[kind]} frozen, limit ${LIMIT_SECONDS} s:`, ...report, `  ${example}`].join(
            "\n",
          ),
        );
      });

      test("the lock read after `stack export` has the same deadline in each command", async () => {
        // `stack export` answered before the freeze: what the CLI returned is given back as is.
        const access: StackAccess = {
          exportStack: async () => structuredClone(exported),
          backendUrl: async () => url,
          updateInProgress: async () => false,
          importStack: () => Promise.reject(new Error("never reached: the lock read comes first")),
          cancelUpdate: () => Promise.reject(new Error("never reached: the lock read comes first")),
        };
        const target = { stack, cwd: project.dir };
        const restore = withEnv({
          ...backend.env,
          [BACKEND_TIMEOUT_VARIABLE]: String(LIMIT_SECONDS),
        });
        const thaw = backend.pause();
        const report: string[] = [];
        try {
          const runs: [string, () => Promise<unknown>][] = [
            ["preflight", () => preflight(target, access)],
            [
              "recover",
              () =>
                recover(
                  { ...target, assignments: [], forget: [someUrn(stack)] },
                  new Date(),
                  access,
                ),
            ],
            ["rekey", () => rekey(target, new Date(), access)],
          ];
          for (const [name, command] of runs) {
            const started = Date.now();
            const error = await command().then(
              () => new Error(`${name} read the frozen backend's locks`),
              (e: Error) => e,
            );
            const seconds = (Date.now() - started) / 1000;
            expect(error).toBeInstanceOf(BackendTimeoutError);
            expect(error.message).toMatch(
              `within ${LIMIT_SECONDS} s (${BACKEND_TIMEOUT_VARIABLE})`,
            );
            expect(error.message).toMatch(hostOf(url));
            expect(error.message).toMatch("could not read the stack's locks");
            expect(seconds).toBeLessThan(BOUND_SECONDS);
            report.push(`  ${name}: ${error.name} after ${seconds.toFixed(1)} s`);
          }
        } finally {
          thaw();
          restore();
        }
        console.log([`${LABEL[kind]} frozen, lock read:`, ...report].join("\n"));
      });
    },
    [backendRequirement(kind)],
  );
}

describeE2E("a backend that accepts connections and never answers (issue 38)", () => {
  let listener: Awaited<ReturnType<typeof silentListener>>;
  let project: ReturnType<typeof projectFolder>;

  beforeAll(async () => {
    listener = await silentListener();
    project = projectFolder();
  });

  afterAll(async () => {
    await listener?.close();
    project?.remove();
  });

  const urls: Record<BackendKind, (port: number) => string> = {
    s3: (port) =>
      `s3://stuck?endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}&s3ForcePathStyle=true&region=us-east-1`,
    azblob: (port) => `azblob://stuck?localemu=true&domain=127.0.0.1:${port}&protocol=http`,
    postgres: (port) =>
      `postgres://pulumi:never-shown-Pw-1@127.0.0.1:${port}/state?sslmode=disable`,
  };
  const credentials = {
    AWS_ACCESS_KEY_ID: "throwaway-access-key",
    AWS_SECRET_ACCESS_KEY: "throwaway-secret-key",
    AWS_REGION: "us-east-1",
    AZURE_STORAGE_ACCOUNT: "devstoreaccount1",
    AZURE_STORAGE_KEY: Buffer.from("throwaway-azure-key").toString("base64"),
  };

  test.each(["s3", "azblob", "postgres"] as const)(
    "%s: preflight, recover and rekey exit 5 within the limit; the lock reader's process ends at it",
    async (kind) => {
      const url = urls[kind](listener.port);
      const env = pulumiEnv({
        ...process.env,
        ...credentials,
        PULUMI_BACKEND_URL: url,
        PULUMI_HOME: project.home,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        [BACKEND_TIMEOUT_VARIABLE]: String(LIMIT_SECONDS),
      });
      const stack = `silent-${kind}`;
      const times: string[] = [];
      for (const [name, args] of commandsFor(stack)) {
        const stuck = await voicePlatform(args, env, project.dir);
        expect({ name, code: stuck.code }).toEqual({ name, code: 5 });
        expect(stuck.stderr).toMatch(
          `within ${LIMIT_SECONDS} s (${BACKEND_TIMEOUT_VARIABLE}) and was stopped`,
        );
        expect(stuck.stderr).toMatch(`stopped: ${NAMED[kind]}127.0.0.1:${listener.port}`);
        expect(stuck.stderr).not.toMatch("never-shown-Pw-1");
        expect(stuck.seconds).toBeLessThan(BOUND_SECONDS);
        expect(await processesOf(stack)).toEqual([]);
        expect(existsSync(join(project.dir, ".pulumi-voice-platform"))).toBe(false);
        times.push(`${name} ${stuck.seconds.toFixed(1)} s`);
      }

      // The reader in a process of its own, as preflight runs it: the process ends with the
      // error, holding no connection open to the silent server.
      const module = { s3: "s3-locks", azblob: "azblob-locks", postgres: "postgres-locks" }[kind];
      const reader = {
        s3: "s3LockRecords",
        azblob: "azureBlobLockRecords",
        postgres: "postgresLockRecords",
      }[kind];
      const script = `require(${JSON.stringify(join(REPO_ROOT, "provider", "cli", "backends", module))})
        .${reader}(${JSON.stringify(url)}, [".pulumi/locks/organization/${PROJECT}/${stack}/"])
        .then(() => console.log("read"), (e) => console.log(e.name + ": " + e.message));`;
      const started = Date.now();
      const child = await run(
        process.execPath,
        [join(REPO_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "-e", script],
        { env, timeout: 120_000, killSignal: "SIGKILL" },
      );
      const seconds = (Date.now() - started) / 1000;
      expect(child.stdout).toMatch("BackendTimeoutError: could not read");
      expect(child.stdout).toMatch("the stack's locks");
      expect(child.stdout).toMatch(`127.0.0.1:${listener.port}`);
      expect(child.stdout).toMatch(`within ${LIMIT_SECONDS} s (${BACKEND_TIMEOUT_VARIABLE})`);
      expect(child.stdout).not.toMatch("never-shown-Pw-1");
      expect(seconds).toBeLessThan(BOUND_SECONDS);
      console.log(
        `${kind}, a silent listener, limit ${LIMIT_SECONDS} s: exit 5 after ${times.join(", ")}; the lock reader's process ended after ${seconds.toFixed(1)} s`,
      );
    },
  );
});
