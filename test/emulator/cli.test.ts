import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { call, callJson } from "./api-calls";

const repositoryRoot = resolve(__dirname, "../..");
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "emulator-cli-"));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

interface CliProcess {
  child: ChildProcess;
  urls: string[];
}

/** Own process group, so stopping it reaches tsx and node behind npx as well. */
function startCli(args: string[]): Promise<CliProcess> {
  const child = spawn("npx", ["tsx", "provider/emulator/command.ts", ...args], {
    cwd: repositoryRoot,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolvePromise, reject) => {
    let stdout = "";
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split("\n").filter((line) => line !== "");
      if (lines.length >= 2) resolvePromise({ child, urls: lines });
    });
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
  });
}

function stopCli({ child }: CliProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null) return resolvePromise();
    child.once("exit", () => resolvePromise());
    if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
  });
}

async function refusesConnections(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      await call("GET", `${url}/__emulator/state`);
    } catch {
      return true;
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
  return false;
}

test("prints both base URLs, serves them, keeps --state across a restart, stops on SIGTERM", async () => {
  const stateFile = join(directory, "cli-state.json");
  const args = ["--port", "0", "--api-key", "cli-key", "--sub-org", "cli-sub"];
  const first = await startCli([...args, "--campaigns-port", "0", "--state", stateFile]);
  try {
    expect(first.urls).toHaveLength(2);
    const [baseUrl, campaignsBaseUrl] = first.urls as [string, string];
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(campaignsBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(campaignsBaseUrl).not.toBe(baseUrl);

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
    await stopCli(first);
  }
  expect(await refusesConnections(first.urls[0] ?? "")).toBe(true);

  const second = await startCli([...args, "--state", stateFile]);
  try {
    const state = await call("GET", `${second.urls[0] ?? ""}/__emulator/state`);
    expect(state.json).toMatchObject({
      organizations: {
        org_emulator: {
          carriers: [{ name: "cli", subOrganizationId: "cli-sub" }],
          subscriptions: { "65f1c0ffee0123456789abcd": [{ url: "https://hooks.example.com" }] },
        },
      },
    });
  } finally {
    await stopCli(second);
  }
});

test("refuses a bad flag with usage and exit code 2", async () => {
  const child = spawn("npx", ["tsx", "provider/emulator/command.ts", "--rate-limit", "fast"], {
    cwd: repositoryRoot,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((resolvePromise) => child.once("exit", resolvePromise));
  expect(code).toBe(2);
  expect(stderr).toContain("--rate-limit must be an integer");
  expect(stderr).toContain("Usage:");
});
