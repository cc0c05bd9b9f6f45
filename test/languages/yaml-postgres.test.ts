/**
 * Issue 22 through the plugin: a Pulumi YAML program stamped out as one stack per
 * sub-organization (20) on a shared PostgreSQL state backend, each stack's `pulumi up --yes`
 * (preview phase included) a separate process, at most RUNNERS at once. Every stack converges, each object
 * is created once and the previews send nothing; a second round changes nothing anywhere.
 */
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import {
  postgresBinDir,
  POSTGRES_MISSING,
  startPostgres,
  type RunningPostgres,
} from "../support/postgres";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { changeSummary, YamlStack } from "./yaml-stack";

const STACKS = 20;
const RUNNERS = 4;
const API_KEY = "yaml-postgres-api-key-0b7e";
const CAMPAIGN_ID = "65a1f0c2e4b0a1b2c3d4e5f6";
const SUB_ORGANIZATIONS = Array.from({ length: STACKS }, (_, i) => `yaml-sub-${i + 1}`);

const program = `name: plugin-yaml-stamp-out
runtime: yaml
resources:
  trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: trunk-\${pulumi.stack}
      gateways:
        - ipv4: 203.0.113.10
          port: 5060
          inbound: true
  hook:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: ${CAMPAIGN_ID}
      url: https://hooks.example.com/\${pulumi.stack}
      events: [POST_PROCESSING_FINISHED:INTERESTED]
`;

const { describe: describeReady } = requirePulumiCli({
  languageHosts: ["yaml"],
  also: [{ available: postgresBinDir() !== undefined, missing: POSTGRES_MISSING }],
  purpose: "the YAML stamp-out on PostgreSQL",
});

describeReady("a YAML program stamped out through the plugin on a PostgreSQL backend", () => {
  jest.setTimeout(1_200_000);
  let postgres: RunningPostgres;
  let emulator: RunningEmulator;
  let project: YamlStack;
  const stacks: YamlStack[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    emulator = await startEmulator({ apiKey: API_KEY, subOrganizationIds: SUB_ORGANIZATIONS });
    project = await YamlStack.create(program);
    const env = {
      PULUMI_BACKEND_URL: await postgres.createDatabase("yaml_stamp_out"),
      // The key through the environment, as a CI job's secret: never on a command line.
      VOICEPLATFORM_API_KEY: API_KEY,
    };
    for (const sub of SUB_ORGANIZATIONS) {
      const stack = await project.otherStack(sub, env);
      await stack.config({
        "voiceplatform:baseUrl": emulator.baseUrl,
        "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
        "voiceplatform:subOrganizationId": sub,
      });
      stacks.push(stack);
    }
  });

  afterAll(async () => {
    await emulator?.stop();
    await project?.remove();
    postgres?.stop();
  });

  /** Each stack's `pulumi up --yes` as its own process, RUNNERS at a time. */
  async function round(): Promise<Record<string, number>[]> {
    const queue = [...stacks];
    const summaries = new Map<YamlStack, Record<string, number>>();
    const runner = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        summaries.set(next, changeSummary((await next.pulumiUp()).stdout));
      }
    };
    await Promise.all(Array.from({ length: RUNNERS }, runner));
    return stacks.map((stack) => summaries.get(stack)!);
  }

  test("every stack converges with each object created once; a second round changes nothing", async () => {
    const first = await round();
    // The preview phase's plan, then the update's result.
    for (const summary of first) expect(summary).toEqual({ "to create": 3, created: 3 });
    const state = await emulator.state();
    const org = Object.values(state.organizations)[0]!;
    const objects = [
      ...org.carriers.map((c) => `${c.subOrganizationId} carrier ${c.name}`),
      ...Object.values(org.subscriptions)
        .flat()
        .map((s) => `${s.subOrganizationId} subscription ${s.url}`),
    ];
    expect(objects).toHaveLength(STACKS * 2);
    const createdTwice = objects.length - new Set(objects).size;
    expect(createdTwice).toBe(0);
    for (const sub of SUB_ORGANIZATIONS) {
      expect(objects).toContain(`${sub} carrier trunk-${sub}`);
    }
    // One create per object: the preview phases sent nothing.
    const requests = await emulator.requests();
    expect(requests.map((r) => r.method)).toEqual(objects.map(() => "POST"));

    const second = await round();
    for (const summary of second) expect(summary).toEqual({ unchanged: 3 });
    expect(await emulator.requests()).toHaveLength(requests.length);

    console.log(
      `YAML stamp-out on PostgreSQL (issue 22): ${STACKS} stacks, ${RUNNERS} runners at once, ` +
        `${objects.length} objects, ${requests.length} create requests, created twice: ${createdTwice}; second round unchanged`,
    );
  });
});
