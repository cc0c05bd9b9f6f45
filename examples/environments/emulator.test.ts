/**
 * The program against the package's platform emulator with the real `pulumi` (on PATH), as CI
 * runs it (`npm test`): a preview sends the platform nothing, `pulumi up --yes` (its preview first)
 * creates each object once, and `pulumi preview --expect-no-changes` afterwards passes and sends
 * nothing. The stack lives in a temporary file backend; nothing reaches the real platform.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "pulumi-voice-platform/emulator";

const run = promisify(execFile);
const STACK = "emulator-check";
const SECRETS = { sipPassword: "emulator-sip-password" };
jest.setTimeout(600_000);

let emulator: RunningEmulator;
let backend: string;
let env: NodeJS.ProcessEnv;

/** `pulumi <args>` on this project's stack; its output, or an error holding it. */
async function pulumi(...args: string[]): Promise<string> {
  const { stdout, stderr } = await run("pulumi", [...args, "--stack", STACK, "--non-interactive"], {
    cwd: __dirname,
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { message: string; stdout?: string; stderr?: string }) => {
    throw new Error(`${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  });
  return stdout + stderr;
}

/** What the last step sent the platform: one line per request. */
async function sent(): Promise<string[]> {
  const requests = await emulator.newRequests();
  return requests.map((request) => `${request.method} ${request.path} ${request.status}`).sort();
}

beforeAll(async () => {
  emulator = await startEmulator();
  backend = mkdtempSync(join(tmpdir(), "voice-platform-state-"));
  env = {
    ...process.env,
    // The addresses and the key of the emulator, which the provider reads like any platform's.
    ...emulator.env,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "emulator-check",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  await run("pulumi", ["stack", "init", STACK, "--non-interactive"], { cwd: __dirname, env });
  for (const [key, value] of Object.entries(SECRETS)) {
    await pulumi("config", "set", "--secret", key, value);
  }
  // What a stack file of its own holds (Pulumi.dev.yaml names placeholder addresses; this stack
  // takes the emulator's from the environment).
  await pulumi("config", "set", "hookBaseUrl", "https://hooks.example.com");
  await pulumi("config", "set", "campaignId", "65a1f0c2e4b0a1b2c3d4e5f1");
  await pulumi("config", "set", "--path", "gateways[0].ipv4", "203.0.113.10");
  await pulumi("config", "set", "--path", "gateways[0].port", "5060");
});

afterAll(async () => {
  await emulator?.stop();
  if (backend !== undefined) rmSync(backend, { recursive: true, force: true });
  rmSync(join(__dirname, `Pulumi.${STACK}.yaml`), { force: true });
});

test("preview sends nothing, up creates each object once, a second preview has no changes", async () => {
  await pulumi("preview");
  expect(await sent()).toEqual([]);

  const up = await pulumi("up", "--yes");
  expect(await sent()).toEqual([
    "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f1/webhook/subscribe 200",
    "POST /organization/sip 201",
    "POST /voices/voice-clone 200",
  ]);
  for (const secret of Object.values(SECRETS)) expect(up).not.toContain(secret);

  // Exits non-zero if the program and the platform's objects disagree.
  await pulumi("preview", "--expect-no-changes");
  expect(await sent()).toEqual([]);
});
