/**
 * No secret in plaintext, anywhere the provider speaks. Distinctive secrets (the API key, a wrong
 * API key, a SIP password, an advanced webhook's header value) go through full create / diff /
 * update / delete cycles, with faults injected (401, 403, 400s that echo the request back, other
 * statuses, resets, deadlines, malformed answers), and everything the provider produces is
 * scanned:
 * - in process: console output (log, info, warn, error, debug, stdout, stderr), check failures,
 *   and every error's message, stack, cause chain and fields;
 * - the real dynamic-provider process: its stdout and stderr and the error details it sends;
 * - the `__provider` text the SDK serializes into state;
 * - when a Pulumi CLI is available: the engine's output and the exported stack state, and what
 *   `pulumi up` shows (live and in Diagnostics) when the platform echoes each request back in its
 *   error text in HTML references and the other escapes of test/emulator/echo-fault.ts.
 * The emulator's own request log is not provider output and is not scanned.
 *
 * Each scenario is a test of its own that scans what it produced (expectNoSecrets) and shows it
 * was not vacuous (errors, check failures or redactions were there to scan), so a leak fails the
 * scenario that caused it.
 */
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { inspect, promisify } from "node:util";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { ApiError } from "../../provider/platform/errors";
import { resetProcessState } from "../../provider/settings/process-state";
import * as runtime from "../../provider/runtime";
import { E2EProject, errorText, recorder } from "../e2e/harness";
import { startEmulator, type FaultAction, type RunningEmulator } from "../../provider/emulator";
import { writeSample } from "../support/builders";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import { EngineSteps } from "../support/engine-steps";
import {
  ProviderCallError,
  ResourceInitError,
  startProviderProcess,
  type PropertyMap,
  type ProviderProcess,
} from "../support/provider-process";
import { serializedProviders, type ResourceKind } from "../support/serialized-provider";
import { issue38Secrets } from "../support/secret-arbitraries";
import { caseless, leaksOf } from "../support/secret-leaks";
import type { EchoTransform } from "../../provider/emulator/control-types";
import {
  echoModes,
  startEchoServer,
  type EchoMode,
  type EchoServer,
} from "../reliability/echo-server";
import { PulumiUpFailed, upWithPreview } from "../support/pulumi-up";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { configureAgainst } from "../provider/emulator-harness";

const SECRETS = {
  apiKey: "apikey-Q7xZ2-distinctive-9F3kLm0p-4411-secretvalue",
  wrongApiKey: "wrongkey-T4vN8-distinctive-2H6jQw1r-7730-notvalid",
  sipPassword: 'sippw-K9"quoted\\back-distinctive-5R1tYu3e-0042',
  headerValue: "Bearer hdrval-M2cX6-distinctive-8P0wEr5t-1199",
} as const;

const campaignId = "65a1f0c2e4b0a1b2c3d4e5f6";
const WINDOW = 20;

/** Every form a secret could leak in: as is, JSON-escaped, URL-encoded, or any 20 characters of it. */
function leaksIn(text: string): string[] {
  const found: string[] = [];
  for (const [name, secret] of Object.entries(SECRETS)) {
    const forms = new Set([
      secret,
      JSON.stringify(secret).slice(1, -1),
      encodeURIComponent(secret),
    ]);
    for (let start = 0; start + WINDOW <= secret.length; start++) {
      forms.add(secret.slice(start, start + WINDOW));
    }
    for (const form of forms) {
      const at = text.indexOf(form);
      if (at >= 0) {
        found.push(
          `${name} as ${JSON.stringify(form)}: …${text.slice(Math.max(0, at - 80), at + form.length + 40)}…`,
        );
        break;
      }
    }
  }
  return found;
}

/**
 * Fails the scenario when any secret shows, in any form leaksIn knows, in what it produced; the
 * failure names the scenario and quotes each leak in its context.
 */
function expectNoSecrets(text: string, scenario: string): void {
  expect({ scenario, leaks: leaksIn(text) }).toEqual({ scenario, leaks: [] });
}

const run = promisify(execFile);

/** The contents of every file under `dir`. */
async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => readFile(join(entry.parentPath, entry.name), "utf8")),
  );
}

/** What an error shows to a user or a program that prints it. */
function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      parts.push(String(current), current.message, current.stack ?? "");
      if (current instanceof ApiError) {
        parts.push(current.body ?? "", current.apiMessage ?? "", current.url);
      }
      for (const field of ["reasons", "details"] as const) {
        const value = (current as unknown as Record<string, unknown>)[field];
        if (value !== undefined) parts.push(inspect(value));
      }
      current = current.cause;
    } else {
      parts.push(inspect(current));
      break;
    }
  }
  return parts.join("\n");
}

/** Captures everything printed in this process. */
function captureOutput(): { text(): string; restore(): void } {
  const chunks: string[] = [];
  const record = (...args: unknown[]) => {
    chunks.push(
      args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 8 }))).join(" "),
    );
  };
  const spies = [
    jest.spyOn(console, "log").mockImplementation(record),
    jest.spyOn(console, "info").mockImplementation(record),
    jest.spyOn(console, "warn").mockImplementation(record),
    jest.spyOn(console, "error").mockImplementation(record),
    jest.spyOn(console, "debug").mockImplementation(record),
    jest.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
      record(String(chunk));
      return true;
    }),
    jest.spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => {
      record(String(chunk));
      return true;
    }),
  ];
  return {
    text: () => chunks.join("\n"),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

let emulator: RunningEmulator;
let echo: EchoServer;

beforeAll(async () => {
  [emulator, echo] = await Promise.all([
    startEmulator({
      organizations: [
        { id: "org_secret", apiKey: SECRETS.apiKey, subOrganizationIds: ["sub_mine"] },
        { id: "org_hostile", apiKey: issue38Secrets.apiKey },
      ],
    }),
    startEchoServer(),
  ]);
});

afterAll(async () => {
  await resetProcessState();
  await Promise.all([emulator?.stop(), echo?.close()]);
});

function carrierArgs(extra: PropertyMap = {}): PropertyMap {
  return {
    name: "secret-trunk",
    requiresRegister: true,
    registerUsername: "trunk user",
    registerPassword: SECRETS.sipPassword,
    gateways: [{ inbound: true, ipv4: "203.0.113.10", port: 5060 }],
    ...extra,
  };
}

function webhookArgs(extra: PropertyMap = {}): PropertyMap {
  return {
    campaignId,
    url: "http://hooks.example.com/calls",
    isAdvanced: true,
    advancedWebhook: {
      url: "https://crm.example.com/hook",
      method: "GET",
      headers: [{ name: "Authorization", value: SECRETS.headerValue }],
      body: "x",
    },
    ...extra,
  };
}

describe("in process", () => {
  /** What the running scenario produced besides console output: check failures, errors, ids. */
  let output: ReturnType<typeof captureOutput>;
  let seen: string[];
  let errors: number;

  beforeEach(async () => {
    output = captureOutput();
    seen = [];
    errors = 0;
    await emulator.reset();
    // The emulator's key is its one organization's: SECRETS.apiKey.
    configureAgainst(emulator);
  });

  afterEach(() => output.restore());

  /** Everything the running scenario produced so far: console output, failures, errors. */
  const produced = () => [output.text(), ...seen].join("\n");

  /** Runs a step; an error is part of the output. */
  async function step<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      errors++;
      seen.push(describeError(error));
      return undefined;
    }
  }

  async function check(kind: "Voice" | "SipCarrier" | "CampaignWebhook", news: PropertyMap) {
    const result = await runtime[kind].check({}, news);
    seen.push(inspect(result.failures));
    return result.inputs;
  }

  async function cycle(): Promise<void> {
    const carrier = await check("SipCarrier", carrierArgs());
    const created = await step(() => runtime.SipCarrier.create(carrier));
    if (created) {
      const news = await check(
        "SipCarrier",
        carrierArgs({ registerPassword: `${SECRETS.sipPassword}-2` }),
      );
      seen.push(
        inspect(await step(() => runtime.SipCarrier.diff(created.id, { ...created.outs }, news))),
      );
      await step(() => runtime.SipCarrier.delete(created.id, { ...created.outs }));
    }
    const webhook = await check("CampaignWebhook", webhookArgs());
    const subscribed = await step(() => runtime.CampaignWebhook.create(webhook));
    if (subscribed) {
      seen.push(subscribed.id);
      await step(() => runtime.CampaignWebhook.delete(subscribed.id, { ...subscribed.outs }));
    }
    const voice = await check("Voice", {
      name: "Secret voice",
      files: [writeSample()],
      isMultilingual: true,
    });
    const cloned = await step(() => runtime.Voice.create(voice));
    if (cloned) {
      const news = await check("Voice", { ...voice, name: "Secret voice 2" });
      await step(() => runtime.Voice.update(cloned.id, { ...cloned.outs }, news));
      await step(() => runtime.Voice.delete(cloned.id, { ...cloned.outs }));
    }
  }

  it("a clean cycle", async () => {
    await cycle();
    expect((await emulator.state()).organizations.org_secret!.carriers).toHaveLength(1);
    expect(errors).toBe(0);
    expectNoSecrets(produced(), "in process, a clean cycle");
  });

  it.each<[string, FaultAction]>([
    ["400", { kind: "status", status: 400 }],
    ["401", { kind: "status", status: 401 }],
    ["403", { kind: "status", status: 403 }],
    ["500", { kind: "status", status: 500 }],
    ["503 with Retry-After", { kind: "status", status: 503, retryAfterSeconds: 0 }],
    ["reset before processing", { kind: "reset-before" }],
    ["reset after processing", { kind: "reset-after" }],
    ["malformed JSON", { kind: "malformed-json" }],
    ["latency past the deadline", { kind: "latency", ms: 2500 }],
  ])("a cycle with %s on every operation", async (label, action) => {
    configureAgainst(emulator, { timeoutSeconds: "1", maxRetries: "1" });
    await emulator.addFault({ method: "*", path: "/organization/sip", action });
    await emulator.addFault({ method: "*", path: "/campaigns/*/webhook/subscribe", action });
    await emulator.addFault({ method: "*", path: "/voices/*", action });
    await emulator.addFault({ method: "*", path: "/voices/voice-clone", action });
    await cycle();
    // Not vacuous: each of the three creates failed, and its error was scanned.
    expect(errors).toBeGreaterThanOrEqual(3);
    expectNoSecrets(produced(), `in process, a cycle with ${label} on every operation`);
  });

  it("a wrong API key (a real 401) and a foreign sub-organization (a real 403)", async () => {
    configureAgainst(emulator, { apiKey: SECRETS.wrongApiKey });
    await cycle();
    expect(errors).toBeGreaterThanOrEqual(3);
    expect(produced()).toContain("refused the API key");
    expect(produced()).toContain("stack config key voiceplatform:apiKey");
    expectNoSecrets(produced(), "in process, a wrong API key");
    configureAgainst(emulator, { subOrganizationId: "sub_not_mine" });
    await cycle();
    expect(errors).toBeGreaterThanOrEqual(6);
    expectNoSecrets(produced(), "in process, a foreign sub-organization");
  });

  it.each(echoModes)("a platform that echoes the request back (%s)", async (mode) => {
    const status = mode === "html" ? 500 : mode === "json-keys" ? 422 : 400;
    configureAgainst(emulator, {
      baseUrl: echo.url(mode, status),
      campaignsBaseUrl: echo.url(mode, status),
      maxRetries: "0",
    });
    await cycle();
    // Updating an existing voice sends the key too; the echo answers it with its body.
    await step(async () =>
      runtime.Voice.update(
        "voice-1",
        { name: "a" },
        await check("Voice", { name: "Secret voice", existingVoiceId: "voice-1" }),
      ),
    );
    // Not vacuous: every call failed with the request echoed back, redacted.
    expect(errors).toBeGreaterThanOrEqual(4);
    expect(produced()).toContain("[redacted]");
    expectNoSecrets(produced(), `in process, a platform that echoes the request back (${mode})`);
  });

  it("check failures and warnings around secrets", async () => {
    await check(
      "SipCarrier",
      carrierArgs({ gateways: [{ inbound: true, ipv4: "sip.example.com", port: 70000 }] }),
    );
    await check("SipCarrier", carrierArgs({ registerPassword: 12345, extra: SECRETS.sipPassword }));
    await check(
      "CampaignWebhook",
      webhookArgs({
        advancedWebhook: {
          url: "https://crm.example.com/hook",
          headers: [{ name: "Authorization", value: `${SECRETS.headerValue}\r\nX-Injected: 1` }],
        },
      }),
    );
    await check(
      "CampaignWebhook",
      webhookArgs({
        advancedWebhook: {
          url: "https://crm.example.com/hook",
          headers: [{ name: SECRETS.headerValue, value: SECRETS.headerValue }],
        },
      }),
    );
    configureAgainst(emulator, { apiKey: "" });
    await step(() => runtime.SipCarrier.create(carrierArgs()));
    // Not vacuous: the check failures were there to scan, and the create without a key failed.
    expect(produced()).toContain("advancedWebhook.headers[0].value");
    expect(errors).toBe(1);
    expect(produced()).toContain("voiceplatform:apiKey is not set");
    expectNoSecrets(produced(), "in process, check failures and warnings around secrets");
  });
});

/** How each process is started and given the stack's settings (names without namespace). */
const processArms = {
  "the real dynamic-provider process and the serialized provider": {
    start: (project: string) => startProviderProcess(project),
    configure: (provider: ProviderProcess, settings: Record<string, string>) =>
      provider.configure(
        Object.fromEntries(Object.entries(settings).map(([k, v]) => [`voiceplatform:${k}`, v])),
      ),
    plugin: false,
  },
  "the provider plugin process": {
    start: (project: string) =>
      startProviderProcess(
        project,
        {},
        {
          executable: join(project, "node_modules", ".bin", "pulumi-resource-voiceplatform"),
        },
      ),
    configure: (provider: ProviderProcess, settings: Record<string, string>) =>
      provider.configureProvider(settings),
    plugin: true,
  },
};

/** Echo modes whose answer, through a provider process, quotes the key back (redacted). */
const quotingEchoes = new Set<EchoMode>(["json-message", "text", "html"]);

/**
 * Each process scenario: what it is, the settings it gives the provider over the right key and
 * the emulator (a function: the echo server's address is known once it runs), and a text its
 * output must hold, if any.
 */
const processScenarios: [string, () => Record<string, string>, string | undefined][] = [
  ["the right key, a reset and a 400 on the first creates", () => ({}), undefined],
  ["a wrong API key", () => ({ apiKey: SECRETS.wrongApiKey }), undefined],
  ["a foreign sub-organization", () => ({ subOrganizationId: "sub_not_mine" }), undefined],
  ...echoModes.map((mode): [string, () => Record<string, string>, string | undefined] => [
    `a platform that echoes the request back (${mode})`,
    () => ({ baseUrl: echo.url(mode), campaignsBaseUrl: echo.url(mode), maxRetries: "0" }),
    quotingEchoes.has(mode) ? "[redacted]" : undefined,
  ]),
];

describe.each(Object.entries(processArms))("%s", (armName, arm) => {
  let project: string;
  let providers: Record<ResourceKind, string>;

  beforeAll(async () => {
    project = await createFixtureProject({ name: "secrets-test" });
    const previousKey = process.env.VOICEPLATFORM_API_KEY;
    // If the serializer captured settings, the key would be in the text.
    process.env.VOICEPLATFORM_API_KEY = SECRETS.apiKey;
    try {
      providers = await serializedProviders(project);
    } finally {
      if (previousKey === undefined) delete process.env.VOICEPLATFORM_API_KEY;
      else process.env.VOICEPLATFORM_API_KEY = previousKey;
    }
  }, 600_000);

  afterAll(async () => {
    if (project !== undefined) await removeFixtureProject(project);
  });

  // The plugin process gets no `__provider` text; the dynamic-provider process runs it.
  if (!arm.plugin) {
    it("the serialized providers hold no secret, with the key in the environment", () => {
      const texts = Object.values(providers);
      expect(texts).toHaveLength(3);
      expectNoSecrets(texts.join("\n"), `${armName}, the serialized providers`);
    });
  }

  it.each(processScenarios)(
    "prints and sends no secret: %s",
    async (scenario, overrides, says) => {
      const settings = overrides();
      const texts: string[] = [];
      await emulator.reset();
      if (scenario === processScenarios[0]![0]) {
        await emulator.addFault({
          method: "POST",
          path: "/organization/sip",
          times: 1,
          action: { kind: "reset-after" },
        });
        await emulator.addFault({
          method: "POST",
          path: "/campaigns/*/webhook/subscribe",
          times: 1,
          action: { kind: "status", status: 400 },
        });
      }
      let failures = 0;
      const provider = await arm.start(project);
      try {
        await arm.configure(provider, {
          apiKey: SECRETS.apiKey,
          baseUrl: emulator.baseUrl,
          campaignsBaseUrl: emulator.campaignsBaseUrl,
          timeoutSeconds: "2",
          ...settings,
        });
        const steps = new EngineSteps(provider, arm.plugin ? "plugin" : providers);
        const run = async (what: () => Promise<unknown>) => {
          try {
            await what();
          } catch (error) {
            failures++;
            texts.push(describeError(error));
            if (error instanceof ResourceInitError) texts.push(error.reasons.join("\n"));
            else if (!(error instanceof ProviderCallError)) texts.push(String(error));
          }
        };
        for (let attempt = 0; attempt < 2; attempt++) {
          await run(async () => {
            const carrier = await steps.create(
              "SipCarrier",
              `trunk-${attempt}`,
              carrierArgs({ name: `trunk-${attempt}` }),
            );
            await steps.update(
              carrier,
              carrierArgs({ name: `trunk-${attempt}`, registerPassword: "rotated-password-value" }),
            );
            await steps.delete(carrier);
          });
          await run(async () => {
            const webhook = await steps.create("CampaignWebhook", `hook-${attempt}`, webhookArgs());
            await steps.delete(webhook);
          });
        }
        await run(() =>
          steps.check("CampaignWebhook", "bad-hook", webhookArgs({ campaignId: "nope" })),
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        texts.push(provider.stdout, provider.stderr);
      } finally {
        await provider.close();
      }
      const text = texts.join("\n");
      // Not vacuous: the faulted creates (or every create) and the bad campaign id failed, and
      // their errors were scanned; where the echo quotes the key back, it is redacted.
      expect(failures).toBeGreaterThanOrEqual(3);
      if (says !== undefined) expect(text).toContain(says);
      expectNoSecrets(text, `${armName}, ${scenario}`);
    },
    600_000,
  );
});

const { cli, describe: withCli } = requirePulumiCli({
  purpose: "the exported-state part of the secrets test",
});

withCli("exported state of a real `pulumi up`", () => {
  let project: E2EProject;

  beforeAll(async () => {
    project = await E2EProject.create();
    // The file backend must exist before the first stack command.
    mkdirSync(new URL(project.backendUrl).pathname, { recursive: true });
  }, 600_000);

  afterAll(async () => {
    await project?.remove();
  });

  it("holds no secret in plaintext, in the state or in what the engine printed", async () => {
    await emulator.reset();
    const stack = await project.stack("secrets", {
      config: {
        "voiceplatform:apiKey": { value: SECRETS.apiKey, secret: true },
        "voiceplatform:baseUrl": { value: emulator.baseUrl },
        "voiceplatform:campaignsBaseUrl": { value: emulator.campaignsBaseUrl },
        "e2e:sipPassword": { value: SECRETS.sipPassword, secret: true },
        "e2e:crmToken": { value: SECRETS.headerValue.replace(/^Bearer /, ""), secret: true },
      },
    });
    const transcript = recorder();
    try {
      await upWithPreview(stack, transcript.options);
    } catch (error) {
      throw new Error(`pulumi up failed: ${errorText(error)}`);
    }
    // What `pulumi stack export` gives (the Automation API's exportStack shows the secrets), and
    // every file the backend keeps: current state, history and backups.
    const workspace = stack.workspace as LocalWorkspace;
    const exported = await run(cli!.pulumi, ["stack", "export", "--stack", "secrets"], {
      cwd: project.dir,
      env: { ...process.env, ...workspace.envVars, PULUMI_HOME: workspace.pulumiHome! },
      maxBuffer: 64 * 1024 * 1024,
    });
    const backendFiles = await allFiles(new URL(project.backendUrl).pathname);
    const state = [exported.stdout, ...backendFiles].join("\n");
    const stored = (await emulator.state()).organizations.org_secret!;
    expect(stored.carriers).toHaveLength(1);
    // Not vacuous: the state holds the resources, with their secrets encrypted.
    expect(state).toContain("voiceplatform:SipCarrier");
    expect(state).toContain("1b47061264138c4ac30d75fd1eb44270");
    expect(state).toContain("ciphertext");
    const destroyed = recorder();
    await stack.destroy(destroyed.options);
    const printed = [transcript.text, inspect(transcript.diagnostics), destroyed.text].join("\n");
    expect(backendFiles.length).toBeGreaterThan(1);
    expectNoSecrets(state, "a real `pulumi up`, the exported state and the backend's files");
    expectNoSecrets(printed, "a real `pulumi up` and destroy, what the engine printed");
    expectNoSecrets(
      await project.stackConfigFile("secrets"),
      "a real `pulumi up`, the stack's config file",
    );
  }, 600_000);

  /**
   * Each create refused with its request quoted back in some of the forms issue 38 found
   * readable at b19be84: the Authorization header and the secret fields only, so the part of the
   * platform's message a user sees (its first 300 characters) quotes every form of each.
   */
  const hostileEchoes: { path: string; fields: string[]; forms: EchoTransform[][] }[] = [
    {
      path: "/voices/voice-clone",
      fields: [],
      forms: [["htmlentities"], ["js-escape"], ["octal"]],
    },
    {
      path: "/organization/sip",
      fields: ["register_password"],
      forms: [["htmlentities"], ["htmlentities", "upper"], ["upper-tr"]],
    },
    {
      path: "/campaigns/*/webhook/subscribe",
      fields: ["value"],
      forms: [["htmlentities"], ["python-ascii", "upper"]],
    },
  ];

  it("shows no secret a platform echoes in HTML references and other escapes, live or in Diagnostics", async () => {
    await emulator.reset();
    for (const { path, fields, forms } of hostileEchoes) {
      await emulator.addFault({
        method: "POST",
        path,
        action: {
          kind: "echo",
          status: 400,
          forms: forms.map((transforms) => ({ transforms, before: "got ", after: "." })),
          as: "text",
          fields,
        },
      });
    }
    const stack = await project.stack("hostile-echo", {
      config: {
        "voiceplatform:apiKey": { value: issue38Secrets.apiKey, secret: true },
        "voiceplatform:baseUrl": { value: emulator.baseUrl },
        "voiceplatform:campaignsBaseUrl": { value: emulator.campaignsBaseUrl },
        "e2e:sipPassword": { value: issue38Secrets.sipPassword, secret: true },
        "e2e:crmToken": { value: issue38Secrets.webhookToken, secret: true },
      },
    });
    const events: unknown[] = [];
    // --continue-on-error: every create is tried (and refused), not only the first few.
    const failed = await upWithPreview(stack, {
      onEvent: (event) => events.push(event),
      args: ["--continue-on-error"],
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(PulumiUpFailed);
    const { stdout, stderr } = failed as PulumiUpFailed;
    // Every line the user saw, and every engine event, read in every form the detector knows.
    const lines = [
      ...stdout.split("\n"),
      ...stderr.split("\n"),
      ...events.map((e) => JSON.stringify(e)),
    ];
    const leaks = lines.flatMap((line) => leaksOf(line, issue38Secrets));
    expect(leaks).toEqual([]);
    const everything = caseless(
      [stdout, stderr, ...events.map((e) => JSON.stringify(e))].join("\n"),
    );
    for (const secret of Object.values(issue38Secrets))
      expect(everything).not.toContain(caseless(secret));
    // Not vacuous: every create was refused with its request echoed back, and each answer was
    // shown, every quoted secret in every form blanked, live and again under Diagnostics.
    const redactionsIn = (failure: string) =>
      stdout
        .split("\n")
        .filter((line) => line.includes(failure))
        .map((line) => line.split("[redacted]").length - 1);
    expect(stdout).toMatch(/Diagnostics:/);
    // Live (creating, creating failed) and under Diagnostics: each quoted piece in each form.
    for (const [failure, pieces, forms] of [
      ['clone voice "Support agent" failed', 1, 3],
      ['create SIP carrier "main-trunk" failed', 2, 3],
      ["subscribe webhook https://crm.example.com/voice-events", 3, 2],
      ["subscribe webhook https://hooks.example.com/voice/interested", 1, 2],
    ] as const) {
      expect({ failure, redactions: redactionsIn(failure) }).toEqual({
        failure,
        redactions: [pieces * forms, pieces * forms, pieces * forms],
      });
    }
    // The preview sent nothing; the update sent the four creates, each refused.
    const requests = await emulator.requests();
    expect(requests.every((r) => r.status === 400)).toBe(true);
    expect(requests.map((r) => r.path).sort()).toEqual([
      `/campaigns/${campaignId}/webhook/subscribe`,
      `/campaigns/${campaignId}/webhook/subscribe`,
      "/organization/sip",
      "/voices/voice-clone",
    ]);
    await stack.destroy();
  }, 600_000);
});
