/**
 * @slow Import through the plugin on every kind, as users run it, in YAML, Python and Go (issue
 * 38), under the real CLI. For each language, on one stack:
 *
 * 1. `pulumi import --file` adopts a voice, a carrier and a webhook by id without a call, and the
 *    code it prints holds only what the ids tell (no `name: ""` Pulumi writes for a required
 *    input it could not read): the webhook's `campaignId`;
 * 2. that code, pasted into the program as it is, previews without a change and `up` sends nothing;
 * 3. the inputs declared afterwards are an update that sends nothing, never a replacement;
 * 4. the `import` option adopts three more without a call: a carrier whose required `name` is left
 *    out with `ignoreChanges` (the Python and Go SDKs used to refuse it), and a webhook without `url`
 *    (which crashed the plugin).
 *
 * Every preview sends nothing, and so does every `up`: the emulator's request log is checked.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { FormData, request } from "undici";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { copyExampleOut, type ExampleCopy } from "../examples/example-copy";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { changeSummary, YamlStack, type CommandResult } from "./yaml-stack";

const API_KEY = "import-paths-api-key-5Vb9";
const campaignId = "65a1f0c2e4b0a1b2c3d4e5f6";
const SAMPLE = "samples/greeting.wav";

/** The ids of the objects each language adopts, made outside the stack. */
interface Ids {
  voice: string;
  carrier: string;
  hook: string;
  optionVoice: string;
  optionCarrier: string;
  optionHook: string;
}

/** One language: its project, where the printed code goes, and the program declared by hand. */
interface Language {
  readonly name: string;
  readonly host: "yaml" | "python" | "go";
  /** The program file `pulumi import --out` writes and the program is made of. */
  readonly file: string;
  project(): Promise<{ dir: string; env: Record<string, string>; cleanUp(): Promise<void> }>;
  /** The program made of the printed code, as it is. */
  pasted(printed: string): string;
  /** The three resources declared in full, and, with `ids`, the three adopted with `import`. */
  declared(ids?: Ids): string;
}

const YAML_HEADER = "name: import-paths-yaml\nruntime: yaml\n";

const yaml: Language = {
  name: "YAML",
  host: "yaml",
  file: "Pulumi.yaml",
  async project() {
    const dir = await createFixtureProject({
      name: "import-paths-yaml",
      files: { [SAMPLE]: "RIFF....WAVEfmt import" },
    });
    await writeFile(join(dir, "Pulumi.yaml"), YAML_HEADER);
    // The plugin as the package installs it: the project's node_modules/.bin.
    const PATH = `${join(dir, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`;
    return { dir, env: { PATH }, cleanUp: () => removeFixtureProject(dir) };
  },
  pasted: (printed) => `${YAML_HEADER}${printed}`,
  declared: (ids) => `${YAML_HEADER}resources:
  v:
    type: voiceplatform:Voice
    properties:
      name: Made elsewhere
      files: [./${SAMPLE}]
  c:
    type: voiceplatform:SipCarrier
    properties:
      name: made-elsewhere
      gateways: [{ ipv4: 203.0.113.20 }]
  h:
    type: voiceplatform:CampaignWebhook
    properties:
      campaignId: ${campaignId}
      url: https://hooks.example.com/imported
      events: [POST_PROCESSING_FINISHED:INTERESTED]
${
  ids === undefined
    ? ""
    : `  iv:
    type: voiceplatform:Voice
    properties:
      name: Adopted voice
      files: [./${SAMPLE}]
    options:
      import: ${ids.optionVoice}
  ic:
    type: voiceplatform:SipCarrier
    properties:
      gateways: [{ ipv4: 203.0.113.21 }]
    options:
      import: ${ids.optionCarrier}
      ignoreChanges: [name]
  ih:
    type: voiceplatform:CampaignWebhook
    properties:
      campaignId: ${campaignId}
    options:
      import: ${ids.optionHook}
`
}`,
};

const python: Language = {
  name: "Python",
  host: "python",
  file: "__main__.py",
  project: () => exampleProject("python"),
  pasted: (printed) => printed,
  declared: (ids) => `import pulumi
import pulumi_voiceplatform as voiceplatform

voiceplatform.Voice("v", name="Made elsewhere", files=["${SAMPLE}"])
voiceplatform.SipCarrier(
    "c", name="made-elsewhere", gateways=[voiceplatform.SipGatewayArgs(ipv4="203.0.113.20")]
)
voiceplatform.CampaignWebhook(
    "h",
    campaign_id="${campaignId}",
    url="https://hooks.example.com/imported",
    events=["POST_PROCESSING_FINISHED:INTERESTED"],
)
${
  ids === undefined
    ? ""
    : `voiceplatform.Voice(
    "iv",
    name="Adopted voice",
    files=["${SAMPLE}"],
    opts=pulumi.ResourceOptions(import_="${ids.optionVoice}"),
)
voiceplatform.SipCarrier(
    "ic",
    gateways=[voiceplatform.SipGatewayArgs(ipv4="203.0.113.21")],
    opts=pulumi.ResourceOptions(import_="${ids.optionCarrier}", ignore_changes=["name"]),
)
voiceplatform.CampaignWebhook(
    "ih",
    campaign_id="${campaignId}",
    opts=pulumi.ResourceOptions(import_="${ids.optionHook}"),
)
`
}`,
};

const go: Language = {
  name: "Go",
  host: "go",
  file: "main.go",
  project: () => exampleProject("go"),
  pasted: (printed) => printed,
  declared: (ids) => `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"pulumi-voice-platform/sdk/go/voiceplatform"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		if _, err := voiceplatform.NewVoice(ctx, "v", &voiceplatform.VoiceArgs{
			Name:  pulumi.String("Made elsewhere"),
			Files: pulumi.Array{pulumi.String("${SAMPLE}")},
		}); err != nil {
			return err
		}
		if _, err := voiceplatform.NewSipCarrier(ctx, "c", &voiceplatform.SipCarrierArgs{
			Name:     pulumi.String("made-elsewhere"),
			Gateways: voiceplatform.SipGatewayArray{&voiceplatform.SipGatewayArgs{Ipv4: pulumi.String("203.0.113.20")}},
		}); err != nil {
			return err
		}
		if _, err := voiceplatform.NewCampaignWebhook(ctx, "h", &voiceplatform.CampaignWebhookArgs{
			CampaignId: pulumi.String("${campaignId}"),
			Url:        pulumi.String("https://hooks.example.com/imported"),
			Events:     voiceplatform.WebhookEventArray{voiceplatform.WebhookEventPostProcessingFinishedInterested},
		}); err != nil {
			return err
		}
${
  ids === undefined
    ? ""
    : `		if _, err := voiceplatform.NewVoice(ctx, "iv", &voiceplatform.VoiceArgs{
			Name:  pulumi.String("Adopted voice"),
			Files: pulumi.Array{pulumi.String("${SAMPLE}")},
		}, pulumi.Import(pulumi.ID("${ids.optionVoice}"))); err != nil {
			return err
		}
		if _, err := voiceplatform.NewSipCarrier(ctx, "ic", &voiceplatform.SipCarrierArgs{
			Gateways: voiceplatform.SipGatewayArray{&voiceplatform.SipGatewayArgs{Ipv4: pulumi.String("203.0.113.21")}},
		}, pulumi.Import(pulumi.ID("${ids.optionCarrier}")), pulumi.IgnoreChanges([]string{"name"})); err != nil {
			return err
		}
		if _, err := voiceplatform.NewCampaignWebhook(ctx, "ih", &voiceplatform.CampaignWebhookArgs{
			CampaignId: pulumi.String("${campaignId}"),
		}, pulumi.Import(pulumi.ID("${ids.optionHook}"))); err != nil {
			return err
		}
`
}		return nil
	})
}
`,
};

/** An example copied out with its toolchain (the Python virtualenv, the Go module's replace). */
async function exampleProject(example: "python" | "go") {
  const copy: ExampleCopy = await copyExampleOut(example);
  return {
    dir: copy.dir,
    env: copy.env,
    cleanUp: () => rm(copy.root, { recursive: true, force: true }),
  };
}

const text = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

/** A command that must have succeeded; what it printed otherwise becomes the failure. */
function succeeded(result: CommandResult): CommandResult {
  if (result.code !== 0) throw new Error(`exited with ${result.code}:\n${text(result)}`);
  return result;
}

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: API_KEY });
});

afterAll(async () => {
  await emulator?.stop();
});

/** A carrier made on the platform outside Pulumi. */
async function carrierMadeElsewhere(name: string): Promise<string> {
  const response = await request(`${emulator.baseUrl}/organization/sip`, {
    method: "POST",
    headers: { authorization: API_KEY, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  expect(response.statusCode).toBe(201);
  return ((await response.body.json()) as { id: string }).id;
}

/** A voice cloned on the platform outside Pulumi: its record's id. */
async function voiceMadeElsewhere(name: string): Promise<string> {
  const form = new FormData();
  form.append("name", name);
  form.append("files", new Blob(["RIFF....WAVEfmt elsewhere"]), "elsewhere.wav");
  const response = await request(`${emulator.baseUrl}/voices/voice-clone`, {
    method: "POST",
    headers: { authorization: API_KEY },
    body: form,
  });
  expect(response.statusCode).toBe(200);
  return ((await response.body.json()) as { id: string }[])[0]!.id;
}

/** A webhook id as the docs say to make one: the API gives a subscription none. */
const webhookId = () => `${campaignId}/${randomUUID()}`;

describe.each([yaml, python, go])("import on every kind, from $name", (language) => {
  const { describe: describeWithCli } = requirePulumiCli({
    languageHosts: [language.host],
    purpose: `import through the plugin from ${language.name}`,
  });

  describeWithCli("through the plugin under the real CLI", () => {
    jest.setTimeout(900_000);
    let stack: YamlStack;
    let cleanUp: () => Promise<void>;
    let ids: Ids;
    const started = Date.now();

    async function newCalls(): Promise<string[]> {
      return (await emulator.newRequests()).map((c) => `${c.method} ${c.path}`);
    }

    async function writeProgram(program: string): Promise<void> {
      await writeFile(join(stack.dir, language.file), program);
    }

    beforeAll(async () => {
      const project = await language.project();
      cleanUp = project.cleanUp;
      stack = await YamlStack.forProject(project.dir, {
        ...project.env,
        VOICEPLATFORM_BASE_URL: emulator.baseUrl,
        VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
      });
      await stack.config({ "voiceplatform:apiKey": API_KEY }, true);
      ids = {
        voice: await voiceMadeElsewhere(`Made elsewhere ${language.name}`),
        carrier: await carrierMadeElsewhere(`made-elsewhere-${language.host}`),
        hook: webhookId(),
        optionVoice: await voiceMadeElsewhere(`Adopted ${language.name}`),
        optionCarrier: await carrierMadeElsewhere(`adopted-${language.host}`),
        optionHook: webhookId(),
      };
      await newCalls();
    }, 900_000);

    afterAll(async () => {
      console.log(
        `import paths from ${language.name}: ${Math.round((Date.now() - started) / 1000)} s`,
      );
      await cleanUp?.();
    });

    it("`pulumi import --file` adopts one object of each kind without a call; the printed code holds only what the ids tell", async () => {
      const importFile = join(stack.dir, "import.json");
      await writeFile(
        importFile,
        JSON.stringify({
          resources: [
            { type: "voiceplatform:index:Voice", name: "v", id: ids.voice },
            { type: "voiceplatform:index:SipCarrier", name: "c", id: ids.carrier },
            { type: "voiceplatform:index:CampaignWebhook", name: "h", id: ids.hook },
          ],
        }),
      );
      // Outside the project: a second Go file with a main would not build.
      const out = join(await mkdtemp(join(tmpdir(), "import-paths-printed-")), language.file);
      const imported = await stack.pulumi([
        "import",
        "--file",
        importFile,
        "--yes",
        "--protect=false",
        "--out",
        out,
      ]);
      succeeded(imported);
      expect(changeSummary(imported.stdout)).toMatchObject({ imported: 3 });
      expect(text(imported)).not.toMatch(/Cannot read properties|failed to validate/);
      expect(await newCalls()).toEqual([]);
      const printed = await readFile(out, "utf8");
      await rm(dirname(out), { recursive: true, force: true });
      console.log(`pulumi import printed (${language.name}):\n${printed}`);
      // Only what the ids tell: the webhook's campaign, and no empty value for what they do not.
      expect(printed).toContain(campaignId);
      expect(printed).not.toMatch(/""|''/);
      const state = await stack.resources();
      expect(state.h!.outputs).toMatchObject({ campaignId, __importedWithoutRead: true });
      expect(state.c!.outputs).toMatchObject({ carrierId: ids.carrier });
      await writeProgram(language.pasted(printed));
    });

    it("the printed code, pasted as it is, previews without a change and `up` sends nothing", async () => {
      const preview = await stack.pulumi(["preview", "--expect-no-changes"]);
      succeeded(preview);
      const up = await stack.pulumiUp();
      expect(changeSummary(up.stdout)).not.toHaveProperty("updated");
      expect(await newCalls()).toEqual([]);
    });

    it("the inputs declared afterwards are recorded by an update that sends nothing, never a replacement", async () => {
      await writeProgram(language.declared());
      const preview = await stack.pulumi(["preview"]);
      succeeded(preview);
      expect(changeSummary(preview.stdout)).toMatchObject({ "to update": 3 });
      expect(preview.stdout).not.toMatch(/replace/);
      expect(preview.stdout).toMatch(/\bh +update +\[diff: \+events,url\]/);
      const up = await stack.pulumiUp();
      expect(changeSummary(up.stdout)).toMatchObject({ updated: 3 });
      expect(await newCalls()).toEqual([]);
      const state = await stack.resources();
      expect(state.h!.outputs).toMatchObject({ url: "https://hooks.example.com/imported" });
      expect(state.h!.outputs).not.toHaveProperty("__importedWithoutRead");
      expect((await stack.pulumi(["preview", "--expect-no-changes"])).code).toBe(0);
      expect(await newCalls()).toEqual([]);
    });

    it("the `import` option adopts without a call: a carrier whose required name ignoreChanges leaves out, a webhook without url", async () => {
      await writeProgram(language.declared(ids));
      const preview = await stack.pulumi(["preview"]);
      succeeded(preview);
      expect(changeSummary(preview.stdout)).toMatchObject({ "to import": 3 });
      const up = await stack.pulumiUp();
      expect(changeSummary(up.stdout)).toMatchObject({ imported: 3 });
      expect(await newCalls()).toEqual([]);
      const state = await stack.resources();
      expect(state.ic!.id).toBe(ids.optionCarrier);
      expect(state.ic!.outputs).not.toHaveProperty("name");
      expect(state.ih!.id).toBe(ids.optionHook);
      const again = await stack.pulumi(["preview", "--expect-no-changes"]);
      succeeded(again);
      expect(await newCalls()).toEqual([]);
    });
  });
});
