/**
 * The CI recipe of docs/testing-your-stacks.md ("In CI"), run as written through `npx` in a
 * project that installed the packed package: the one-step script (its `npm test` is the project's
 * test script, which asks the emulator for its state) and the GitHub Actions steps that keep it
 * serving across steps (each `run:` in its own bash, `$GITHUB_ENV` a file read between steps, as
 * the runner does). After each, the emulator's PID (from its ready file) is gone and so is the
 * ready file: `npm exec` does not pass SIGTERM through its shell, so the emulator ends because its
 * parent went.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { load } from "js-yaml";
import {
  createFixtureProject,
  npmEnv,
  removeFixtureProject,
  REPO_ROOT,
} from "../support/packed-package";

const run = promisify(execFile);

jest.setTimeout(300_000);

/** What the recipe's `npm test` runs: the emulator's state, and the PID that serves it. */
const PROBE = `
const base = process.env.VOICEPLATFORM_BASE_URL;
fetch(base + "/__emulator/state").then(async (answer) => {
  require("node:fs").writeFileSync("probe.json", JSON.stringify({
    status: answer.status,
    pid: Number(process.env.VOICEPLATFORM_EMULATOR_PID),
    key: process.env.VOICEPLATFORM_API_KEY,
  }));
});
`;

let project: string;

beforeAll(async () => {
  project = await createFixtureProject({ files: { "probe.js": PROBE } });
  const manifestPath = join(project, "package.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as Record<string, unknown>;
  await writeFile(
    manifestPath,
    JSON.stringify({ ...manifest, scripts: { test: "node probe.js" } }, null, 2),
  );
});

afterAll(() => removeFixtureProject(project));

/** The page's code blocks of a language after the "### In CI" heading, in order. */
async function recipeBlocks(language: string): Promise<string[]> {
  const page = await readFile(join(REPO_ROOT, "docs", "testing-your-stacks.md"), "utf8");
  const section = page.slice(page.indexOf("### In CI"));
  const end = section.indexOf("\n### ", 1);
  const text = end === -1 ? section : section.slice(0, end);
  return [...text.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map(
    (match) => match[1]!,
  );
}

async function bash(script: string, env: NodeJS.ProcessEnv): Promise<void> {
  await run("bash", ["-e", "-c", script], { cwd: project, env, maxBuffer: 16 << 20 });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the process is gone within the time given (it stops within its 0.2 s parent check). */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

async function probed(): Promise<{ status: number; pid: number; key: string }> {
  return JSON.parse(await readFile(join(project, "probe.json"), "utf8")) as never;
}

test("the one-step recipe: the emulator serves the tests, and no process is left after the step", async () => {
  const [script] = await recipeBlocks("sh");
  expect(script).toContain("npx pulumi-voice-platform emulator");
  await bash(script!, npmEnv());
  const { status, pid, key } = await probed();
  expect({ status, key }).toEqual({ status: 200, key: "emulator-key" });
  expect(pid).toBeGreaterThan(0);
  expect(await goneWithin(pid, 5000)).toBe(true);
  expect(existsSync(join(project, "emulator.env"))).toBe(false);
});

test("the GitHub Actions steps: it serves across steps, and the last step leaves no process", async () => {
  const [workflow] = await recipeBlocks("yaml");
  const steps = load(workflow!) as { run: string; if?: string }[];
  expect(steps.map((step) => step.run.trim().split("\n")[0])).toEqual([
    expect.stringContaining("--outlive-parent"),
    "npm test",
    'kill "$VOICEPLATFORM_EMULATOR_PID"',
  ]);
  expect(steps[2]!.if).toBe("always()");
  const githubEnv = join(project, "github-env");
  await writeFile(githubEnv, "");
  let pid = 0;
  for (const step of steps) {
    // The runner reads $GITHUB_ENV after each step into the next ones' environment.
    const lines = (await readFile(githubEnv, "utf8")).split("\n").filter((line) => line !== "");
    const exported = Object.fromEntries(lines.map((line) => line.split(/=(.*)/s).slice(0, 2)));
    await bash(step.run, { ...npmEnv(), ...exported, GITHUB_ENV: githubEnv });
    if (step.run.trim() === "npm test") {
      const probe = await probed();
      expect(probe.status).toBe(200);
      pid = probe.pid;
      // The starting step's shell is gone: --outlive-parent kept it serving.
      expect(alive(pid)).toBe(true);
    }
  }
  expect(pid).toBeGreaterThan(0);
  expect(await goneWithin(pid, 5000)).toBe(true);
  expect(existsSync(join(project, "emulator.env"))).toBe(false);
});
