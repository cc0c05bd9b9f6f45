/**
 * `pulumi-voice-platform emulator`, the command a team runs: it prints both base URLs as
 * environment lines once it listens, serves them, applies --faults, keeps --state across a
 * restart, stops cleanly (exit 0) on SIGINT and SIGTERM, and refuses a bad command line (exit 2)
 * or a port in use (exit 1) saying what to do.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connectEmulator } from "../../provider/emulator";
import { call, callJson } from "./api-calls";

const repositoryRoot = resolve(__dirname, "../..");
const MAIN = join(repositoryRoot, "provider/cli/main.ts");
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "emulator-cli-"));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

interface CliProcess {
  child: ChildProcess;
  /** The lines it printed on stdout once it listened. */
  lines: string[];
  /** NAME=value lines, by name. */
  env: Record<string, string>;
  stderr: () => string;
}

function spawnCli(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", MAIN, "emulator", ...args], {
    cwd: repositoryRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function startCli(args: string[]): Promise<CliProcess> {
  const child = spawnCli(args);
  return new Promise((resolvePromise, reject) => {
    let stdout = "";
    let stderr = "";
    // Both streams: the ready line on stderr, then the URLs on stdout.
    const resolveOnceBoth = () => {
      const lines = stdout.split("\n").filter((line) => line !== "");
      if (lines.length < 2 || !stderr.includes("ready")) return;
      const env = Object.fromEntries(lines.map((line) => line.split(/=(.*)/s).slice(0, 2)));
      resolvePromise({ child, lines, env, stderr: () => stderr });
    };
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      resolveOnceBoth();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      resolveOnceBoth();
    });
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
  });
}

/** Sends the signal and resolves with the exit code. */
function stopCli(
  { child }: CliProcess,
  signal: NodeJS.Signals = "SIGTERM",
): Promise<number | null> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null) return resolvePromise(child.exitCode);
    child.once("exit", (code) => resolvePromise(code));
    child.kill(signal);
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolvePromise) =>
    child.once("exit", (code) => resolvePromise({ code, stderr })),
  );
}

async function refusesConnections(url: string): Promise<boolean> {
  try {
    await call("GET", `${url}/__emulator/state`);
    return false;
  } catch {
    return true;
  }
}

test("prints both base URLs, serves them, keeps --state across a restart, exits 0 on SIGTERM", async () => {
  const stateFile = join(directory, "cli-state.json");
  const args = ["--port", "0", "--api-key", "cli-key", "--sub-org", "cli-sub"];
  const first = await startCli([...args, "--campaigns-port", "0", "--state", stateFile]);
  let exitCode: number | null;
  try {
    expect(first.lines).toEqual([
      expect.stringMatching(/^VOICEPLATFORM_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/),
      expect.stringMatching(/^VOICEPLATFORM_CAMPAIGNS_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/),
    ]);
    const baseUrl = first.env.VOICEPLATFORM_BASE_URL!;
    const campaignsBaseUrl = first.env.VOICEPLATFORM_CAMPAIGNS_BASE_URL!;
    expect(campaignsBaseUrl).not.toBe(baseUrl);
    // The key is the user's: the output never shows it.
    expect(first.stderr()).not.toContain("cli-key");

    const carrier = await callJson(
      "POST",
      `${baseUrl}/organization/sip`,
      { name: "cli" },
      { apiKey: "cli-key", headers: { "x-sub-organization-id": "cli-sub" } },
    );
    expect(carrier.status).toBe(201);
    const subscription = await callJson(
      "POST",
      `${campaignsBaseUrl}/campaigns/65f1c0ffee0123456789abcd/webhook/subscribe`,
      { url: "https://hooks.example.com" },
      { apiKey: "cli-key" },
    );
    expect(subscription.status).toBe(200);
  } finally {
    exitCode = await stopCli(first);
  }
  expect(exitCode).toBe(0);
  expect(first.stderr()).toContain("stopped (SIGTERM)");
  expect(await refusesConnections(first.env.VOICEPLATFORM_BASE_URL!)).toBe(true);

  const second = await startCli([...args, "--state", stateFile]);
  try {
    const state = await call("GET", `${second.env.VOICEPLATFORM_BASE_URL}/__emulator/state`);
    expect(state.json).toMatchObject({
      organizations: {
        org_emulator: {
          carriers: [{ name: "cli", subOrganizationId: "cli-sub" }],
          subscriptions: { "65f1c0ffee0123456789abcd": [{ url: "https://hooks.example.com" }] },
        },
      },
    });
  } finally {
    expect(await stopCli(second, "SIGINT")).toBe(0);
  }
});

test("--faults puts the named profiles in force, in order, and a reset brings them back", async () => {
  const running = await startCli(["--port", "0", "--faults", "rate-limited,lost-answer"]);
  try {
    const baseUrl = running.env.VOICEPLATFORM_BASE_URL!;
    const control = connectEmulator(baseUrl);
    const kinds = (await control.faults()).map((rule) => `${rule.action.kind} ${rule.path}`);
    expect(kinds).toEqual([
      "status /voices/voice-clone",
      "status /voices/*",
      "status /organization/sip",
      "status /campaigns/*/webhook/subscribe",
      "reset-after /voices/voice-clone",
      "reset-after /organization/sip",
      "reset-after /campaigns/*/webhook/subscribe",
    ]);
    const refused = await callJson(
      "POST",
      `${baseUrl}/organization/sip`,
      { name: "x" },
      { apiKey: "emulator-key" },
    );
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect(await control.faults()).toHaveLength(6);
    await control.reset();
    expect(await control.faults()).toHaveLength(7);
    expect(running.stderr()).toContain("faults: rate-limited, lost-answer");
  } finally {
    await stopCli(running);
  }
});

test("a port in use: exit 1, naming the flags that pick others", async () => {
  const running = await startCli(["--port", "0"]);
  try {
    const port = new URL(running.env.VOICEPLATFORM_BASE_URL!).port;
    const { code, stderr } = await exitOf(spawnCli(["--port", port, "--campaigns-port", "0"]));
    expect(code).toBe(1);
    expect(stderr).toContain(`port ${port} or 0 is in use`);
    expect(stderr).toContain("--port 0");
  } finally {
    await stopCli(running);
  }
});

test("refuses a bad flag with the usage and exit code 2 (test/unit/cli/emulator-command.test.ts has every refusal)", async () => {
  const { code, stderr } = await exitOf(spawnCli(["--faults", "flaky"]));
  expect(code).toBe(2);
  expect(stderr).toContain('--faults names no profile "flaky"');
  expect(stderr).toContain("use one or more of latency,");
  expect(stderr).toContain("pulumi-voice-platform emulator [--port 4010]");
});

test("--ready-file holds the URLs and the PID once it serves; it stops when the shell that started it is killed, and removes the file", async () => {
  const readyFile = join(directory, "ready.env");
  const command = [process.execPath, "--import", "tsx", MAIN, "emulator", "--port", "0"]
    .map((word) => `'${word}'`)
    .join(" ");
  // The emulator's parent is this shell, which passes no signal on when it is killed.
  const shell = spawn("bash", ["-c", `${command} --ready-file '${readyFile}' & wait`], {
    cwd: repositoryRoot,
    stdio: "ignore",
  });
  const deadline = Date.now() + 20_000;
  while (!existsSync(readyFile) && Date.now() < deadline) {
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
  }
  const lines = (await readFile(readyFile, "utf8")).trim().split("\n");
  expect(lines).toEqual([
    expect.stringMatching(/^VOICEPLATFORM_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/),
    expect.stringMatching(/^VOICEPLATFORM_CAMPAIGNS_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/),
    expect.stringMatching(/^VOICEPLATFORM_EMULATOR_PID=\d+$/),
  ]);
  const env = Object.fromEntries(lines.map((line) => line.split(/=(.*)/s).slice(0, 2)));
  const pid = Number(env.VOICEPLATFORM_EMULATOR_PID);
  expect((await call("GET", `${env.VOICEPLATFORM_BASE_URL}/__emulator/state`)).status).toBe(200);
  shell.kill("SIGKILL");
  const stopped = Date.now() + 5_000;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (alive() && Date.now() < stopped) {
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
  }
  expect(alive()).toBe(false);
  expect(existsSync(readyFile)).toBe(false);
});
