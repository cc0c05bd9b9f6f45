/**
 * `npm run example -- <python|go|yaml|plugin-typescript> [--destroy]`: runs one of the plugin's
 * examples against the platform emulator, the way `npm run demo` runs examples/basic. The plugin
 * is this checkout's `provider/plugin/bin/pulumi-resource-voiceplatform` (after `npm run build`), put on PATH as
 * a global install would. Per language:
 *
 * - python: `pulumi install` makes examples/python/venv with `pulumi` and the generated SDK;
 * - go: the Go toolchain builds the program against the generated module (go.mod `replace`);
 * - plugin-typescript: the generated Node.js SDK is compiled (provider/sdk/nodejs/bin) and linked
 *   into node_modules as `pulumi-voice-platform-sdk`;
 * - yaml: nothing to prepare.
 *
 * State, backend and the emulator's objects live in .demo/<example>/ (git-ignored); a second run
 * reports no changes.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import { delimiter, join } from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator } from "../test/emulator";
import { locatePulumi, pulumiEnv, REPO_ROOT } from "../test/pulumi-cli/locate";

export const pluginExamples = ["python", "go", "yaml", "plugin-typescript"] as const;
type PluginExample = (typeof pluginExamples)[number];

const API_KEY = "example-api-key";

function say(line: string): void {
  process.stdout.write(`\x1b[1m==> ${line}\x1b[0m\n`);
}

function runOrFail(command: string, args: string[], cwd: string, env = process.env): void {
  const result = spawnSync(command, args, { cwd, env, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${cwd}`);
}

/** The generated Node.js SDK, compiled and resolvable by name from the repository. */
function linkNodeSdk(): void {
  const sdk = join(REPO_ROOT, "provider/sdk/nodejs");
  runOrFail(process.execPath, [join(REPO_ROOT, "node_modules/typescript/bin/tsc")], sdk);
  // Its compiled files are required from bin/, beside the manifest, as when it is published.
  for (const file of ["package.json", "README.md"]) cpSync(join(sdk, file), join(sdk, "bin", file));
  const link = join(REPO_ROOT, "node_modules", "pulumi-voice-platform-sdk");
  if (!existsSync(link) && !isSymlink(link)) symlinkSync(join(sdk, "bin"), link, "dir");
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export async function runExample(
  example: PluginExample,
  options: { destroy?: boolean; output?: (text: string) => void } = {},
): Promise<Record<string, unknown>> {
  const output = options.output ?? ((text: string) => process.stdout.write(text));
  const cli = locatePulumi();
  if (!cli) throw new Error("No Pulumi CLI found: run `npm run pulumi:install`.");
  const workDir = join(REPO_ROOT, "examples", example);
  const demoDir = join(REPO_ROOT, ".demo", example);
  mkdirSync(join(demoDir, "backend"), { recursive: true });
  if (example === "plugin-typescript") linkNodeSdk();

  const emulator = await startEmulator({
    apiKey: API_KEY,
    stateFile: join(demoDir, "emulator-state.json"),
  });
  try {
    const env = pulumiEnv({
      ...process.env,
      PATH: `${join(REPO_ROOT, "provider", "plugin", "bin")}${delimiter}${process.env.PATH ?? ""}`,
      PULUMI_BACKEND_URL: `file://${join(demoDir, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "example-passphrase",
      VOICEPLATFORM_BASE_URL: emulator.baseUrl,
      VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
    }) as Record<string, string>;
    if (example === "python" && !existsSync(join(workDir, "venv"))) {
      say("pulumi install (a virtualenv with pulumi and the generated SDK)");
      runOrFail(cli.pulumi, ["install"], workDir, env);
    }
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "example", workDir },
      {
        pulumiCommand: await PulumiCommand.get({
          root: join(cli.binDir, ".."),
          skipVersionCheck: true,
        }),
        envVars: env,
      },
    );
    const projectName = (await stack.workspace.projectSettings()).name;
    await stack.setAllConfig({
      "voiceplatform:apiKey": { value: API_KEY, secret: true },
      [`${projectName}:sipPassword`]: { value: "example-sip-password", secret: true },
    });
    if (options.destroy) {
      say(`pulumi destroy (examples/${example})`);
      await stack.destroy({ onOutput: output });
      return {};
    }
    say(`pulumi preview (examples/${example}) against the emulator at ${emulator.baseUrl}`);
    await emulator.client.newRequests();
    await stack.preview({ onOutput: output });
    output(`The preview sent ${(await emulator.client.newRequests()).length} requests\n`);
    say(`pulumi up (examples/${example})`);
    // stack.up() skips the preview phase, which is fine because the preview just above ran it.
    const up = await stack.up({ onOutput: output });
    output(`The update sent ${(await emulator.client.newRequests()).length} requests\n`);
    return Object.fromEntries(Object.entries(up.outputs).map(([name, o]) => [name, o.value]));
  } finally {
    await emulator.close();
  }
}

if (require.main === module) {
  const example = process.argv[2] as PluginExample;
  if (!(pluginExamples as readonly string[]).includes(example)) {
    process.stderr.write(`usage: npm run example -- <${pluginExamples.join("|")}> [--destroy]\n`);
    process.exit(2);
  }
  runExample(example, { destroy: process.argv.includes("--destroy") }).catch((error: unknown) => {
    process.stderr.write(
      `example failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}
