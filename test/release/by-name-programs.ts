/**
 * The five programs a team writes first, each in a fresh folder outside the repository, each
 * installing this project by name only, with the commands the README's install table gives:
 *
 * - TypeScript with the dynamic resources: `npm install pulumi-voice-platform @pulumi/pulumi`;
 * - TypeScript through the plugin: `npm install pulumi-voice-platform-sdk @pulumi/pulumi`, the
 *   engine fetching the plugin from the SDK's pluginDownloadURL;
 * - YAML with the plugin from the release: nothing installed, `version` and `pluginDownloadURL` in
 *   each resource's options, the engine fetching the plugin from there;
 * - YAML: `npm install -g pulumi-voice-platform-plugin`, the plugin on PATH (its native package
 *   for the platform an optional dependency);
 * - Python: `pip install pulumi_voiceplatform` in the program's virtualenv;
 * - Go: `go get <module>@v<version>` of the released module path, then `go mod tidy`.
 *
 * @pulumi/pulumi and Python's pulumi are asked for at the CLI's version, as a team pins its
 * Pulumi; nothing else names a version but the Go module, which Go requires.
 */
import { writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";

export type ProgramName =
  "typescript-dynamic" | "typescript-plugin" | "yaml-engine" | "yaml" | "python" | "go";

/** A command as a user types it in the program's folder: the file and its arguments. */
export type Command = [string, ...string[]];

export interface ByNameProgram {
  name: ProgramName;
  /** The program's files. */
  files: Record<string, string | Uint8Array>;
  /** What the user runs to install the project, by name, in order. */
  install: Command[];
  /** The platform calls `pulumi up` makes, one per object (`METHOD path`). */
  creates: string[];
  /**
   * Where the engine finds the plugin: "engine" (fetched from the SDK's pluginDownloadURL), "path"
   * (the npm package's bin on PATH), or "none" (the dynamic resources need none).
   */
  plugin: "engine" | "path" | "none";
}

export interface ProgramFacts {
  /** The CLI's version: @pulumi/pulumi's and Python pulumi's. */
  pulumiVersion: string;
  /** The release's version and Go module path. */
  version: string;
  goModulePath: string;
  /** Where the release's plugin archives are: the SDKs' pluginDownloadURL, ${VERSION} filled in. */
  pluginDownloadURL: string;
}

const CAMPAIGN = "65a1f0c2e4b0a1b2c3d4e5f6";
const SIP = "POST /organization/sip";
const WEBHOOK = `POST /campaigns/${CAMPAIGN}/webhook/subscribe`;
const CLONE = "POST /voices/voice-clone";

/** A WAV file of 100 ms of silence, 8 kHz mono 16-bit: a voice sample. */
function silence(): Buffer {
  const samples = Buffer.alloc(1600);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

const pulumiYaml = (name: string, runtime: string) => `name: ${name}\nruntime: ${runtime}\n`;

function typescriptDynamic(facts: ProgramFacts): ByNameProgram {
  return {
    name: "typescript-dynamic",
    files: {
      "Pulumi.yaml": pulumiYaml("by-name-dynamic", "nodejs"),
      "package.json": JSON.stringify({ name: "by-name-dynamic", private: true }, null, 2),
      "greeting.wav": silence(),
      "index.ts": [
        'import { CampaignWebhook, SipCarrier, Voice } from "pulumi-voice-platform";',
        "",
        'const voice = new Voice("greeter", { name: "By name", files: ["greeting.wav"] });',
        'const trunk = new SipCarrier("trunk", {',
        '  name: "by-name-dynamic",',
        '  gateways: [{ outbound: true, ipv4: "203.0.113.10", port: 5060 }],',
        "});",
        'new CampaignWebhook("leads", {',
        `  campaignId: "${CAMPAIGN}",`,
        '  url: "https://hooks.example.com/by-name",',
        '  events: ["POST_PROCESSING_FINISHED:INTERESTED"],',
        "});",
        "",
        "export const voiceId = voice.voiceId;",
        "export const carrierId = trunk.id;",
        "",
      ].join("\n"),
    },
    install: [["npm", "install", "pulumi-voice-platform", `@pulumi/pulumi@${facts.pulumiVersion}`]],
    creates: [CLONE, SIP, WEBHOOK],
    plugin: "none",
  };
}

function typescriptPlugin(facts: ProgramFacts): ByNameProgram {
  return {
    name: "typescript-plugin",
    files: {
      "Pulumi.yaml": pulumiYaml("by-name-plugin-sdk", "nodejs"),
      "package.json": JSON.stringify({ name: "by-name-plugin-sdk", private: true }, null, 2),
      "index.ts": [
        'import * as voiceplatform from "pulumi-voice-platform-sdk";',
        "",
        'const trunk = new voiceplatform.SipCarrier("trunk", {',
        '  name: "by-name-plugin-sdk",',
        '  gateways: [{ outbound: true, ipv4: "203.0.113.11", port: 5060 }],',
        "});",
        'new voiceplatform.CampaignWebhook("leads", {',
        `  campaignId: "${CAMPAIGN}",`,
        '  url: "https://hooks.example.com/by-name-sdk",',
        '  events: ["POST_PROCESSING_FINISHED:INTERESTED"],',
        "});",
        "",
        "export const carrierId = trunk.id;",
        "",
      ].join("\n"),
    },
    install: [
      ["npm", "install", "pulumi-voice-platform-sdk", `@pulumi/pulumi@${facts.pulumiVersion}`],
    ],
    creates: [SIP, WEBHOOK],
    plugin: "engine",
  };
}

/** The YAML program's resources, each with `options` lines when given. */
function yamlResources(name: string, options: string[]): string {
  const indented = options.map((line) => `      ${line}`);
  return [
    `name: ${name}`,
    "runtime: yaml",
    "resources:",
    "  trunk:",
    "    type: voiceplatform:SipCarrier",
    "    properties:",
    `      name: ${name}`,
    "      gateways:",
    "        - outbound: true",
    "          ipv4: 203.0.113.12",
    "          port: 5060",
    ...(options.length === 0 ? [] : ["    options:", ...indented]),
    "  leads:",
    "    type: voiceplatform:CampaignWebhook",
    "    properties:",
    `      campaignId: "${CAMPAIGN}"`,
    `      url: https://hooks.example.com/${name}`,
    "      events:",
    "        - POST_PROCESSING_FINISHED:INTERESTED",
    ...(options.length === 0 ? [] : ["    options:", ...indented]),
    "outputs:",
    "  carrierId: ${trunk.id}",
    "",
  ].join("\n");
}

function yamlEngine(facts: ProgramFacts): ByNameProgram {
  return {
    name: "yaml-engine",
    files: {
      "Pulumi.yaml": yamlResources("by-name-yaml-engine", [
        `version: ${facts.version}`,
        `pluginDownloadURL: ${facts.pluginDownloadURL}`,
      ]),
    },
    install: [],
    creates: [SIP, WEBHOOK],
    plugin: "engine",
  };
}

function yaml(): ByNameProgram {
  return {
    name: "yaml",
    files: { "Pulumi.yaml": yamlResources("by-name-yaml", []) },
    install: [["npm", "install", "-g", "pulumi-voice-platform-plugin"]],
    creates: [SIP, WEBHOOK],
    plugin: "path",
  };
}

function python(facts: ProgramFacts): ByNameProgram {
  return {
    name: "python",
    files: {
      "Pulumi.yaml":
        "name: by-name-python\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n",
      "__main__.py": [
        "import pulumi",
        "import pulumi_voiceplatform as voiceplatform",
        "",
        'trunk = voiceplatform.SipCarrier("trunk", name="by-name-python", gateways=[',
        '    voiceplatform.SipGatewayArgs(outbound=True, ipv4="203.0.113.13", port=5060)])',
        'voiceplatform.CampaignWebhook("leads", campaign_id="' + CAMPAIGN + '",',
        '    url="https://hooks.example.com/by-name-python",',
        '    events=["POST_PROCESSING_FINISHED:INTERESTED"])',
        'pulumi.export("carrierId", trunk.id)',
        "",
      ].join("\n"),
    },
    install: [
      ["python3", "-m", "venv", "venv"],
      [
        join("venv", "bin", "pip"),
        "install",
        "--report",
        "pip-report.json",
        "pulumi_voiceplatform",
        `pulumi==${facts.pulumiVersion}`,
      ],
    ],
    creates: [SIP, WEBHOOK],
    plugin: "engine",
  };
}

function go(facts: ProgramFacts): ByNameProgram {
  return {
    name: "go",
    files: {
      "Pulumi.yaml": pulumiYaml("by-name-go", "go"),
      "main.go": [
        "package main",
        "",
        "import (",
        '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
        `\t"${facts.goModulePath}/voiceplatform"`,
        ")",
        "",
        "func main() {",
        "\tpulumi.Run(func(ctx *pulumi.Context) error {",
        '\t\ttrunk, err := voiceplatform.NewSipCarrier(ctx, "trunk", &voiceplatform.SipCarrierArgs{',
        '\t\t\tName: pulumi.String("by-name-go"),',
        "\t\t\tGateways: voiceplatform.SipGatewayArray{&voiceplatform.SipGatewayArgs{",
        '\t\t\t\tOutbound: pulumi.Bool(true), Ipv4: pulumi.String("203.0.113.14"), Port: pulumi.Int(5060),',
        "\t\t\t}},",
        "\t\t})",
        "\t\tif err != nil {",
        "\t\t\treturn err",
        "\t\t}",
        '\t\t_, err = voiceplatform.NewCampaignWebhook(ctx, "leads", &voiceplatform.CampaignWebhookArgs{',
        `\t\t\tCampaignId: pulumi.String("${CAMPAIGN}"),`,
        '\t\t\tUrl:        pulumi.String("https://hooks.example.com/by-name-go"),',
        "\t\t\tEvents:     voiceplatform.WebhookEventArray{voiceplatform.WebhookEventPostProcessingFinishedInterested},",
        "\t\t})",
        "\t\tif err != nil {",
        "\t\t\treturn err",
        "\t\t}",
        '\t\tctx.Export("carrierId", trunk.ID())',
        "\t\treturn nil",
        "\t})",
        "}",
        "",
      ].join("\n"),
    },
    install: [
      ["go", "mod", "init", "by-name-go"],
      [
        "go",
        "get",
        `${facts.goModulePath}@v${facts.version}`,
        `github.com/pulumi/pulumi/sdk/v3@v${facts.pulumiVersion}`,
      ],
      ["go", "mod", "tidy"],
    ],
    creates: [SIP, WEBHOOK],
    plugin: "engine",
  };
}

export function byNamePrograms(facts: ProgramFacts): ByNameProgram[] {
  return [typescriptDynamic, typescriptPlugin, yamlEngine, yaml, python, go].map((program) =>
    program(facts),
  );
}

/** Writes the program's files into `dir`. */
export async function writeProgram(program: ByNameProgram, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(program.files)) {
    await writeFile(join(dir, name), content);
  }
}
