/**
 * One SIP carrier declared from Python, TypeScript or Go with the released SDK packages, run
 * under the real CLI against the emulator with a fresh PULUMI_HOME, a file backend, automatic
 * plugin acquisition on and no plugin on PATH: the engine must fetch the plugin from the SDK's
 * pluginDownloadURL. A preview sends nothing, `pulumi up --yes` (with its preview) creates the
 * carrier once, destroy empties the stack.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { delimiter, dirname, join } from "node:path";
import type { RunningEmulator, RequestLogEntry } from "../../provider/emulator";
import { cli, E2EProject, errorText, recorder } from "../e2e/harness";
import { goEnv, pulumiVersion, runTool } from "../languages/toolchains";
import { upWithPreview } from "../support/pulumi-up";
import { PLUGIN_NAME } from "../../provider/release/plugin-archive";
import { REPO_ROOT } from "../support/packed-package";

export const API_KEY = "release-api-key-51c9";
export type ReleaseLanguage = "python" | "nodejs" | "go";

const requestLine = (r: RequestLogEntry) => `${r.method} ${r.path} ${r.status}`;

function commandDir(name: string): string {
  const found = execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
  if (found === "") throw new Error(`${name} is not on PATH: the ${name} programs need it`);
  return dirname(found);
}

/**
 * PATH with the CLI and its language hosts, node, python3 and go, and nothing else: no
 * node_modules/.bin and no folder holding a pulumi-resource-voiceplatform. Fails if one would.
 */
export function pathWithoutPlugin(): string {
  const dirs = [
    ...new Set([cli!.binDir, dirname(process.execPath), commandDir("python3"), commandDir("go")]),
  ];
  const holding = dirs.filter((dir) => existsSync(join(dir, PLUGIN_NAME)));
  if (holding.length > 0) {
    throw new Error(`${PLUGIN_NAME} is in ${holding.join(", ")}: the test needs a PATH without it`);
  }
  return dirs.join(delimiter);
}

/** The program's files for each language: one carrier, its id exported. */
const programs: Record<ReleaseLanguage, (goModulePath: string) => Record<string, string>> = {
  python: () => ({
    "Pulumi.yaml":
      "name: release-python\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n",
    "__main__.py": [
      "import pulumi",
      "import pulumi_voiceplatform as voiceplatform",
      "",
      'carrier = voiceplatform.SipCarrier("trunk", name="release-trunk", gateways=[',
      '    voiceplatform.SipGatewayArgs(outbound=True, ipv4="203.0.113.10", port=5060)])',
      'pulumi.export("carrierId", carrier.id)',
      "",
    ].join("\n"),
  }),
  nodejs: () => ({
    "Pulumi.yaml": "name: release-nodejs\nruntime: nodejs\nmain: index.js\n",
    "package.json": JSON.stringify({ name: "release-nodejs", private: true, main: "index.js" }),
    "index.js": [
      'const voiceplatform = require("pulumi-voice-platform-sdk");',
      'const carrier = new voiceplatform.SipCarrier("trunk", {',
      '  name: "release-trunk",',
      '  gateways: [{ outbound: true, ipv4: "203.0.113.10", port: 5060 }],',
      "});",
      "exports.carrierId = carrier.id;",
      "",
    ].join("\n"),
  }),
  go: (goModulePath) => ({
    "Pulumi.yaml": "name: release-go\nruntime: go\n",
    "main.go": [
      "package main",
      "",
      "import (",
      '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      `\t"${goModulePath}/voiceplatform"`,
      ")",
      "",
      "func main() {",
      "\tpulumi.Run(func(ctx *pulumi.Context) error {",
      '\t\tcarrier, err := voiceplatform.NewSipCarrier(ctx, "trunk", &voiceplatform.SipCarrierArgs{',
      '\t\t\tName: pulumi.String("release-trunk"),',
      "\t\t\tGateways: voiceplatform.SipGatewayArray{&voiceplatform.SipGatewayArgs{",
      '\t\t\t\tOutbound: pulumi.Bool(true), Ipv4: pulumi.String("203.0.113.10"), Port: pulumi.Int(5060),',
      "\t\t\t}},",
      "\t\t})",
      "\t\tif err != nil {",
      "\t\t\treturn err",
      "\t\t}",
      '\t\tctx.Export("carrierId", carrier.ID())',
      "\t\treturn nil",
      "\t})",
      "}",
      "",
    ].join("\n"),
  }),
};

export interface InstallFrom {
  /** The wheel (python), the SDK tarball (nodejs) or the module folder (go). */
  artifact: string;
  /** The Go module path the SDK was generated with. */
  goModulePath?: string;
}

/** Writes the program into `dir` and installs the released SDK there as its README says. */
export async function prepareProgram(
  language: ReleaseLanguage,
  dir: string,
  from: InstallFrom,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const goModulePath = from.goModulePath ?? "";
  for (const [name, text] of Object.entries(programs[language](goModulePath))) {
    await writeFile(join(dir, name), text);
  }
  const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1", npm_config_loglevel: "error" };
  switch (language) {
    case "python":
      await runTool(process.env.PYTHON ?? "python3", ["-m", "venv", "venv"], { cwd: dir });
      await runTool(
        join(dir, "venv", "bin", "pip"),
        ["install", "--quiet", `pulumi==${pulumiVersion()}`, from.artifact],
        { cwd: dir, env },
      );
      break;
    case "nodejs":
      await runTool(
        "npm",
        [
          "install",
          "--no-audit",
          "--no-fund",
          "--prefer-offline",
          from.artifact,
          `@pulumi/pulumi@${pulumiVersion()}`,
        ],
        { cwd: dir, env },
      );
      break;
    case "go":
      // The released folder through a local module path, and the sums of examples/go.
      await writeFile(
        join(dir, "go.mod"),
        `module release-go\n\ngo 1.25\n\nrequire (\n\tgithub.com/pulumi/pulumi/sdk/v3 v${pulumiVersion()}\n\t${goModulePath} v0.0.0\n)\n`,
      );
      await cp(join(REPO_ROOT, "examples", "go", "go.sum"), join(dir, "go.sum"));
      await runTool("go", ["mod", "edit", `-replace=${goModulePath}=${from.artifact}`], {
        cwd: dir,
        env: goEnv(),
      });
      break;
  }
}

export interface CarrierRun {
  /** The PULUMI_HOME the CLI ran with (its plugins/ holds what the engine installed). */
  pulumiHome: string;
}

/**
 * Preview, up with its preview, destroy of the program in `dir`, checking what reached the
 * emulator at each step. `root` holds the backend and the fresh PULUMI_HOME.
 */
export async function runOneCarrier(
  dir: string,
  root: string,
  emulator: RunningEmulator,
): Promise<CarrierRun> {
  const project = await E2EProject.forDirectory(dir, root);
  const stack = await project.stack("dev", {
    env: {
      PATH: pathWithoutPlugin(),
      // The harness turns acquisition off for every other test; this one is about it.
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      VOICEPLATFORM_BASE_URL: emulator.baseUrl,
      VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
      ...(existsSync(join(dir, "go.mod")) ? (goEnv({}) as Record<string, string>) : {}),
    },
    config: { "voiceplatform:apiKey": { value: API_KEY, secret: true } },
  });
  await emulator.newRequests();
  const fail = (error: unknown) => {
    throw new Error(errorText(error));
  };
  const preview = await stack.preview(recorder().options).catch(fail);
  expect(preview.changeSummary).toEqual({ create: 2 });
  expect((await emulator.newRequests()).map(requestLine)).toEqual([]);

  const up = await upWithPreview(stack, recorder().options).catch(fail);
  expect(up.summary.resourceChanges).toEqual({ create: 2 });
  expect((await emulator.newRequests()).map(requestLine)).toEqual(["POST /organization/sip 201"]);
  const carrierId = (await stack.outputs()).carrierId?.value;
  const held = (await emulator.state()).organizations.org_emulator!.carriers;
  expect(held.filter((c) => c.id === carrierId).map((c) => c.name)).toEqual(["release-trunk"]);

  const destroy = await stack.destroy(recorder().options).catch(fail);
  expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
  return { pulumiHome: project.pulumiHome };
}

/** Where the engine installs the plugin under a PULUMI_HOME. */
export function installedPlugin(pulumiHome: string, version: string): string {
  return join(pulumiHome, "plugins", `resource-voiceplatform-v${version}`, PLUGIN_NAME);
}
