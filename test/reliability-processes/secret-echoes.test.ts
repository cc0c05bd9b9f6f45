/**
 * The one rule for secrets in messages, property-based, through both front ends as the engine
 * drives them: the provider plugin's process and the real dynamic-provider process, each over
 * gRPC, against the emulator's echo fault, a real local HTTP server that refuses a create with 400
 * and quotes the request back (raw body, Authorization header, each string of the body) in
 * generated forms: lower or upper case, percent-encoded (either hex case, a form's `+`),
 * JSON-escaped (or all non-ASCII as `\uXXXX`), HTML-escaped, chained, with letters around.
 *
 * Generated secrets of 1 to 40 characters (mixed case, characters that need escaping, unicode)
 * are a SIP password, an advanced webhook's header value, parameter value, body, or a token in
 * its URL's path; API keys of 1 to 40 characters configure the processes. For every case,
 * everything the front end produced (the error the engine gets, the process's stdout and
 * stderr) is scanned by a detector written apart from the provider (test/support/secret-leaks)
 * in every normalized view:
 * - no secret of 4 characters or more shows, in any form;
 * - a call that carried a shorter secret shows nothing of the platform's answer.
 */
import fc from "fast-check";
import { join } from "node:path";
import type { Inputs } from "../../provider/core/resource-descriptor";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import type { EchoForm, FaultAction } from "../../provider/emulator/control-types";
import { ECHO_MARKER } from "../../provider/emulator/echo-fault";
import { carrierInputs, webhookInputs } from "../support/builders";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import {
  ProviderCallError,
  startProviderProcess,
  type ProviderProcess,
} from "../support/provider-process";
import { apiKeyText, echoForms, secretText } from "../support/secret-arbitraries";
import { caseless, leaksOf, normalizedViews } from "../support/secret-leaks";
import { oneLineProviderText, resourceUrn } from "../support/serialized-provider";

/** Cases per front end; with the unit tier's 1,000 these are the thousands of the rule's test. */
const RUNS = Number(process.env.SECRET_ECHO_RUNS ?? 1000);
const FINDABLE = 4;

jest.setTimeout(600_000);

/** The keys the processes are configured with: long, short enough to be a word, under 4. */
const apiKeys = [
  ...fc.sample(apiKeyText(20, 40), { numRuns: 1, seed: 29 }),
  ...fc.sample(apiKeyText(4, 12), { numRuns: 1, seed: 30 }),
  ...fc.sample(apiKeyText(1, 3), { numRuns: 1, seed: 31 }),
];

type Target = "registerPassword" | "header" | "parameter" | "body" | "url";

interface Case {
  readonly key: number;
  readonly target: Target;
  readonly secret: string;
  readonly forms: EchoForm[];
  readonly as: "json" | "text";
}

const cases: fc.Arbitrary<Case> = fc.record({
  key: fc.nat(apiKeys.length - 1),
  target: fc.constantFrom<Target>("registerPassword", "header", "parameter", "body", "url"),
  secret: fc.oneof(
    { weight: 1, arbitrary: secretText(1, FINDABLE - 1) },
    { weight: 4, arbitrary: secretText(FINDABLE, 40) },
  ),
  forms: echoForms,
  as: fc.constantFrom("json" as const, "text" as const),
});

/** The resource a case creates, and the secrets the detector must not find (by name). */
function scenario(c: Case): {
  kind: "SipCarrier" | "CampaignWebhook";
  inputs: Inputs;
  path: string;
  secrets: Record<string, string>;
  carriesShort: boolean;
} {
  const apiKey = apiKeys[c.key]!;
  const secrets: Record<string, string> = {};
  if (apiKey.length >= FINDABLE) secrets.apiKey = apiKey;
  const short = [...c.secret].length < FINDABLE;
  if (c.target === "registerPassword") {
    if (!short) secrets.registerPassword = c.secret;
    return {
      kind: "SipCarrier",
      inputs: carrierInputs({ registerPassword: c.secret }),
      path: "/organization/sip",
      secrets,
      carriesShort: short || apiKey.length < FINDABLE,
    };
  }
  const advanced: Inputs = { url: "https://crm.example.com/", method: "GET" };
  if (c.target === "header") advanced.headers = [{ name: "X-Token", value: c.secret }];
  if (c.target === "parameter") advanced.parameters = [{ name: "token", value: c.secret }];
  if (c.target === "body") advanced.body = c.secret;
  if (c.target === "url") {
    const path = `/p/${encodeURIComponent(c.secret)}`;
    advanced.url = `https://crm.example.com${path}`;
    // The URL is the secret, whatever the token's length: whole, and by its path; the token
    // on its own once it has the 8 characters of a URL's searched pieces.
    secrets.url = advanced.url as string;
    secrets.path = path;
    if ([...c.secret].length >= 8) secrets.token = c.secret;
  } else if (!short) {
    secrets[c.target] = c.secret;
  }
  return {
    kind: "CampaignWebhook",
    inputs: webhookInputs({ isAdvanced: true, advancedWebhook: advanced }),
    path: "/campaigns/*/webhook/subscribe",
    secrets,
    carriesShort: (short && c.target !== "url") || apiKey.length < FINDABLE,
  };
}

let emulator: RunningEmulator;
let project: string;

beforeAll(async () => {
  [emulator, project] = await Promise.all([
    startEmulator(),
    createFixtureProject({ name: "secret-echoes" }),
  ]);
}, 600_000);

afterAll(async () => {
  await emulator?.stop();
  if (project !== undefined) await removeFixtureProject(project);
});

interface FrontEnd {
  readonly plugin: boolean;
  start(apiKey: string): Promise<ProviderProcess>;
}

const frontEnds: Record<string, FrontEnd> = {
  "the provider plugin's process": {
    plugin: true,
    async start(apiKey) {
      const executable = join(project, "node_modules", ".bin", "pulumi-resource-voiceplatform");
      const provider = await startProviderProcess(project, {}, { executable });
      await provider.configureProvider({
        apiKey,
        baseUrl: emulator.baseUrl,
        campaignsBaseUrl: emulator.campaignsBaseUrl,
        maxRetries: "0",
      });
      return provider;
    },
  },
  "the dynamic-provider process": {
    plugin: false,
    async start(apiKey) {
      const provider = await startProviderProcess(project);
      await provider.configure({
        "voiceplatform:apiKey": apiKey,
        "voiceplatform:baseUrl": emulator.baseUrl,
        "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
        "voiceplatform:maxRetries": "0",
      });
      return provider;
    },
  },
};

describe.each(Object.entries(frontEnds))(
  "generated secrets echoed back, through %s",
  (_name, frontEnd) => {
    const processes = new Map<number, Promise<ProviderProcess>>();
    const processFor = (key: number) => {
      if (!processes.has(key)) processes.set(key, frontEnd.start(apiKeys[key]!));
      return processes.get(key)!;
    };

    afterAll(async () => {
      await Promise.all([...processes.values()].map(async (p) => (await p).close()));
    });

    /** What the front end produces for a case's create refused by `action`. */
    const refusedCreate = async (c: Case, action: FaultAction) => {
      const { kind, inputs, path } = scenario(c);
      const provider = await processFor(c.key);
      const urn = frontEnd.plugin
        ? `urn:pulumi:echo::echo::voiceplatform:index:${kind}::case`
        : resourceUrn(kind, "case");
      const news = frontEnd.plugin ? inputs : { ...inputs, __provider: oneLineProviderText(kind) };
      const checked = await provider.check(urn, {}, news);
      expect(checked.failures).toEqual([]);
      await emulator.addFault({ method: "POST", path, times: 1, action });
      const [stdoutBefore, stderrBefore] = [provider.stdout.length, provider.stderr.length];
      const error = await provider.create(urn, checked.inputs).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProviderCallError);
      return [
        (error as ProviderCallError).details,
        provider.stdout.slice(stdoutBefore),
        provider.stderr.slice(stderrBefore),
      ].join("\n");
    };

    /**
     * The provider's own words for a target's refused create, with a secret that spells none of
     * them: its messages never quote a secret, so a generated secret that spells a piece of them
     * (the fixture's URL .../calls, "this call failed") shows there without anything leaking.
     * Such cases are skipped, and counted.
     */
    const ownWords = new Map<string, Promise<string[]>>();
    const ownWordsOf = (c: Case) => {
      const key = `${c.key}/${c.target}`;
      if (!ownWords.has(key)) {
        const plain: Case = { ...c, secret: "Qz7xWv9Kp2Jm4Lr8", forms: [] };
        const status: FaultAction = { kind: "status", status: 400 };
        ownWords.set(key, refusedCreate(plain, status).then(normalizedViews));
      }
      return ownWords.get(key)!;
    };

    it(`shows no secret in any form, and no answer to a call carrying a short one (${RUNS} cases)`, async () => {
      const seen = { cases: 0, redacted: 0, withheld: 0, spellOwnWords: 0 };
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          const { secrets, carriesShort } = scenario(c);
          const own = await ownWordsOf(c);
          const spellsOwnWords = Object.values(secrets).some((secret) =>
            own.some((view) => view.includes(caseless(secret))),
          );
          if (spellsOwnWords) seen.spellOwnWords++;
          fc.pre(!spellsOwnWords);
          const action: FaultAction = { kind: "echo", status: 400, forms: c.forms, as: c.as };
          const produced = await refusedCreate(c, action);
          seen.cases++;
          expect({ case: c, leaks: leaksOf(produced, secrets) }).toEqual({ case: c, leaks: [] });
          if (carriesShort) {
            const marker = caseless(ECHO_MARKER);
            expect({
              case: c,
              answerShown: normalizedViews(produced).some((view) => view.includes(marker)),
            }).toEqual({ case: c, answerShown: false });
            seen.withheld++;
          } else if (/\[redacted\]|\[withheld/.test(produced)) {
            seen.redacted++;
          }
        }),
        { numRuns: RUNS, seed: Number(process.env.SECRET_ECHO_SEED ?? Date.now() % 2 ** 31) },
      );
      console.log(
        `secret echoes, ${_name}: ${seen.cases} cases, ${seen.redacted} redacted, ${seen.withheld} answers withheld, 0 leaks` +
          ` (${seen.spellOwnWords} generated secrets skipped: they spell the provider's own words)`,
      );
      // Not vacuous: the answers quoted the secrets, and were redacted or withheld.
      expect(seen.cases).toBe(RUNS);
      expect(seen.redacted + seen.withheld).toBeGreaterThan(RUNS * 0.95);
    });
  },
);
