/**
 * Issue 38: examples/environments/stamp-out.ts as a team copies it, from a fresh checkout: the
 * example copied out of the repository and installed with `npm ci` from its own lockfile, then
 * `npx tsx stamp-out.ts` against the emulator and a file backend outside the copy.
 *
 * - Each thing it must not guess (the backend, the passphrase, unset or empty, the API key, the
 *   SIP password) missing: exit 2 naming it and how to set it; the platform's request log stays
 *   empty, no stack exists and no file was written.
 * - A stack that does not exist stops at preflight without --create-stacks (exit 1), sends nothing
 *   and creates no stack; with it, each object is created once; a run after that without it
 *   changes nothing.
 * - A new SIP password would replace the carriers (each old one staying on the platform): the
 *   preview stops the stack without --allow-replace, and nothing is sent.
 * - --destroy needs neither the key nor the SIP password, and sends nothing.
 *
 * @slow over a minute: npm ci of the example, two rounds of two stacks
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { describeE2E } from "../e2e/harness";
import { pulumiEnv } from "../pulumi-cli/locate";
import { runToEnd, type CommandResult } from "../support/command-result";
import { npmEnv, REPO_ROOT } from "../support/packed-package";
import { copyEnvironmentsWithLockfile } from "./example-copy";

const API_KEY = "stamp-out-copy-api-key-7e1b";
const SUBS = ["sub-a", "sub-b"] as const;

describeE2E("stamp-out from a fresh checkout (issue 38)", () => {
  let emulator: RunningEmulator;
  let copy: { root: string; dir: string };
  let backendDir: string;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY, subOrganizationIds: [...SUBS] });
    copy = await copyEnvironmentsWithLockfile();
    backendDir = join(copy.root, "state");
    mkdirSync(backendDir);
  });

  afterAll(async () => {
    await emulator?.stop();
    if (copy !== undefined) await rm(copy.root, { recursive: true, force: true });
  });

  /** What a team sets: every variable stamp-out reads, before a test takes one away. */
  function teamEnv(): Record<string, string> {
    return {
      PULUMI_HOME: join(copy.root, "pulumi-home"),
      PULUMI_BACKEND_URL: `file://${backendDir}`,
      PULUMI_CONFIG_PASSPHRASE: "stamp-out-copy-passphrase",
      VOICEPLATFORM_API_KEY: API_KEY,
      SIP_PASSWORD: "stamp-out-copy-sip-password",
      FORCE_COLOR: "0",
    };
  }

  /** `npx tsx stamp-out.ts …` in the copy, as its README says, with exactly this environment. */
  async function stampOut(env: Record<string, string>, args: string[]): Promise<CommandResult> {
    const base = npmEnv();
    for (const name of Object.keys(base)) {
      if (/^(PULUMI_|VOICEPLATFORM_|SIP_PASSWORD$)/.test(name)) delete base[name];
    }
    const platform = [
      "--base-url",
      emulator.baseUrl,
      "--campaigns-base-url",
      emulator.campaignsBaseUrl,
    ];
    return runToEnd("npx", ["--no-install", "tsx", "stamp-out.ts", ...platform, ...args], {
      cwd: copy.dir,
      env: pulumiEnv({ ...base, ...env }),
    });
  }

  const without = (...names: string[]) =>
    Object.fromEntries(Object.entries(teamEnv()).filter(([name]) => !names.includes(name)));

  /** The stacks the backend holds (a file backend keeps one file per stack). */
  function stacksOnBackend(): string[] {
    const dir = join(backendDir, ".pulumi", "stacks");
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".json"),
    );
  }

  /** Nothing reached the platform, no stack exists and the copy holds no file a run writes. */
  async function expectNothingTouched(): Promise<void> {
    expect(await emulator.requests()).toEqual([]);
    expect(stacksOnBackend()).toEqual([]);
    const written = readdirSync(copy.dir).filter(
      (name) => /^Pulumi\.sub-/.test(name) || name === ".stamp-out",
    );
    expect(written).toEqual([]);
  }

  /** What a team can leave unset, and what the refusal says of each. */
  const missing: [string, string][] = [
    ["PULUMI_BACKEND_URL", "no state backend: set PULUMI_BACKEND_URL (or give --backend URL)"],
    [
      "PULUMI_CONFIG_PASSPHRASE",
      "no passphrase for the stacks' secrets: set PULUMI_CONFIG_PASSPHRASE",
    ],
    ["VOICEPLATFORM_API_KEY", "no VOICEPLATFORM_API_KEY: export"],
    ["SIP_PASSWORD", "no SIP_PASSWORD: export"],
  ];

  /** A refusal before anything: exit 2, named, nothing sent, no stack, no file. */
  async function expectRefused(result: CommandResult, messages: string[]): Promise<void> {
    expect({ code: result.code, stderr: result.stderr }).toMatchObject({ code: 2 });
    expect(result.stderr).toContain("stamp-out: refused to start");
    expect(result.stderr).toContain("no stack was touched");
    for (const message of messages) expect(result.stderr).toContain(message);
    expect(result.stdout).toBe("");
    await expectNothingTouched();
  }

  test("an empty passphrase: refused before anything (exit 2, named), nothing sent, no stack", async () => {
    const result = await stampOut({ ...teamEnv(), PULUMI_CONFIG_PASSPHRASE: "" }, [...SUBS]);
    await expectRefused(result, ["PULUMI_CONFIG_PASSPHRASE is set but empty"]);
  });

  // Each check fires on its own: all four unset give four reasons, each in its own words.
  test("everything missing at once: every reason listed in one refusal", async () => {
    const result = await stampOut(without(...missing.map(([name]) => name)), [...SUBS]);
    await expectRefused(
      result,
      missing.map(([, message]) => message),
    );
    const reasons = result.stderr.split("\n").filter((line) => line.startsWith("  - "));
    expect(reasons).toHaveLength(4);
    expect(reasons.join("\n")).toMatch(
      /no state backend[\s\S]*no passphrase[\s\S]*no VOICEPLATFORM_API_KEY[\s\S]*no SIP_PASSWORD/,
    );
  });

  test("a stack that does not exist stops at preflight without --create-stacks: nothing sent, none created", async () => {
    const result = await stampOut(teamEnv(), [...SUBS]);
    expect(result.code).toBe(1);
    for (const sub of SUBS) {
      expect(result.stdout).toContain(`[${sub}] failed in`);
      expect(result.stdout).toContain(`stack ${sub} does not exist`);
      expect(result.stdout).toContain("run again with --create-stacks");
    }
    expect(result.stdout).toContain("0 of 2 stacks succeeded");
    await expectNothingTouched();
  });

  test("--create-stacks creates each object once; the next run, without it, changes nothing", async () => {
    const first = await stampOut(teamEnv(), ["--create-stacks", ...SUBS]);
    expect({ code: first.code, out: first.stdout + first.stderr }).toMatchObject({ code: 0 });
    for (const sub of SUBS) {
      expect(first.stdout).toContain(`[${sub}] created the stack (--create-stacks)`);
      expect(first.stdout).toMatch(
        new RegExp(`\\[${sub}\\] succeeded in [\\d.]+ s \\(4 create\\)`),
      );
    }
    expect(first.stdout).toMatch(/^stack +result +changes +seconds$/m);
    expect(first.stdout).toContain("2 of 2 stacks succeeded");
    // The key and the SIP password went through the environment: `config set --secret` would
    // have put them on a command line, and into these files.
    for (const sub of SUBS) {
      const config = readFileSync(join(copy.dir, `Pulumi.${sub}.yaml`), "utf8");
      expect(config).toContain("voiceplatform:subOrganizationId");
      expect(config).not.toMatch(/apiKey|sipPassword|secure:/);
    }
    const creates = await emulator.requests();
    // A voice, a carrier and a webhook per stack, each once.
    expect(creates.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [
        "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe",
        "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe",
        "POST /organization/sip",
        "POST /organization/sip",
        "POST /voices/voice-clone",
        "POST /voices/voice-clone",
      ].sort(),
    );
    expect(stacksOnBackend()).toHaveLength(2);

    const again = await stampOut(teamEnv(), [...SUBS]);
    expect({ code: again.code, out: again.stdout + again.stderr }).toMatchObject({ code: 0 });
    for (const sub of SUBS)
      expect(again.stdout).toContain(`[${sub}] preflight: no interrupted operations`);
    for (const sub of SUBS)
      expect(again.stdout).toMatch(new RegExp(`\\[${sub}\\] succeeded in [\\d.]+ s \\(4 same\\)`));
    expect(await emulator.requests()).toHaveLength(creates.length);
    for (const text of [first.stdout, first.stderr, again.stdout, again.stderr]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain("stamp-out-copy-sip-password");
    }
  });

  test("a new SIP password would replace the carriers: stopped without --allow-replace, nothing sent", async () => {
    const before = (await emulator.requests()).length;
    const result = await stampOut({ ...teamEnv(), SIP_PASSWORD: "a-different-sip-password" }, [
      ...SUBS,
    ]);
    expect(result.code).toBe(1);
    for (const sub of SUBS) {
      expect(result.stdout).toContain(`[${sub}] failed in`);
    }
    expect(result.stdout).toContain("the preview replaces 1 object(s)");
    expect(result.stdout).toContain("stays on the platform");
    expect(result.stdout).toContain("then run again with --allow-replace");
    expect(await emulator.requests()).toHaveLength(before);
  });

  test("--destroy needs neither the API key nor the SIP password, and sends nothing", async () => {
    const before = (await emulator.requests()).length;
    const result = await stampOut(without("VOICEPLATFORM_API_KEY", "SIP_PASSWORD"), [
      "--destroy",
      ...SUBS,
    ]);
    expect({ code: result.code, out: result.stdout + result.stderr }).toMatchObject({ code: 0 });
    for (const sub of SUBS)
      expect(result.stdout).toMatch(
        new RegExp(`\\[${sub}\\] succeeded in [\\d.]+ s \\(4 delete\\)`),
      );
    expect(await emulator.requests()).toHaveLength(before);
  });

  test("the copy is outside the repository and ran its own tsx", () => {
    expect(copy.dir.startsWith(REPO_ROOT)).toBe(false);
    expect(existsSync(join(copy.dir, "node_modules", ".bin", "tsx"))).toBe(true);
  });
});
