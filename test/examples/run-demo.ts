/**
 * `npm run demo`: the main job on its embedded default. Starts the platform emulator with a state
 * file, runs `pulumi preview` then `pulumi up --yes` on the demo stack (examples/basic, through the root Pulumi.yaml)
 * with a local file backend, prints the outputs, what the emulator now holds and what the
 * ledger lists as left on the platform (`leftovers`), and stops the emulator. Everything it writes goes to .demo/ (git-ignored); run it again and Pulumi reports no
 * changes. `npm run demo -- --destroy` tears the stack down, `--reset` starts from scratch.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { delimiter, join, relative } from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator } from "../../provider/emulator";
import { locatePulumi, pulumiEnv, REPO_ROOT } from "../pulumi-cli/locate";
import { linkPackageIntoNodeModules } from "./link-package";

const DEMO_DIR = join(REPO_ROOT, ".demo");
const DEMO_PASSPHRASE = "demo-passphrase";
const DEMO_API_KEY = "demo-api-key";
const STACK = "demo";

function say(line: string): void {
  process.stdout.write(`\x1b[1m==> ${line}\x1b[0m\n`);
}

function ensureCli() {
  const found = locatePulumi();
  if (found) return found;
  say(
    "No Pulumi CLI found: building one from source with the Node.js language host the demo runs " +
      "(npm run pulumi:install -- --languages=nodejs, several minutes the first time)",
  );
  // Only the Node.js host: the demo never starts the Python, Go or YAML ones, and a later full
  // `npm run pulumi:install` builds those (install.sh records which hosts a build holds).
  const build = spawnSync(
    "bash",
    [join(REPO_ROOT, "test/pulumi-cli/install.sh"), "--languages=nodejs"],
    { stdio: "inherit" },
  );
  const built = build.status === 0 ? locatePulumi() : undefined;
  if (!built)
    throw new Error("Could not get a Pulumi CLI: `npm run pulumi:install` failed (see above).");
  return built;
}

/**
 * What the demo's stacks left on the platform, from the ledger the provider keeps beside the
 * demo's state (.demo/backend/.pulumi/voiceplatform-ledger): `pulumi-voice-platform leftovers`.
 */
function showLeftovers(binDir: string): void {
  say("npx pulumi-voice-platform leftovers (objects on the platform that no stack holds)");
  const shown = spawnSync(
    process.execPath,
    [join(REPO_ROOT, "dist", "provider", "cli", "main.js"), "leftovers"],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}`,
        PULUMI_BACKEND_URL: `file://${join(DEMO_DIR, "backend")}`,
        PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE,
        PULUMI_SKIP_UPDATE_CHECK: "true",
      },
      encoding: "utf8",
    },
  );
  process.stdout.write(`${`${shown.stdout}${shown.stderr}`.trimEnd().replace(/^/gm, "  ")}\n`);
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  if (args.has("--reset")) rmSync(DEMO_DIR, { recursive: true, force: true });
  mkdirSync(join(DEMO_DIR, "backend"), { recursive: true });
  mkdirSync(join(DEMO_DIR, "config"), { recursive: true });

  const cli = ensureCli();
  say(`Pulumi CLI ${cli.version} (${relative(REPO_ROOT, cli.pulumi) || cli.pulumi})`);
  linkPackageIntoNodeModules(REPO_ROOT);

  const emulator = await startEmulator({
    apiKey: DEMO_API_KEY,
    stateFile: join(DEMO_DIR, "emulator-state.json"),
  });
  say(`Platform emulator at ${emulator.baseUrl} (campaigns at ${emulator.campaignsBaseUrl})`);
  try {
    const pulumiCommand = await PulumiCommand.get({
      root: join(cli.binDir, ".."),
      skipVersionCheck: true,
    });
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: STACK, workDir: REPO_ROOT },
      {
        pulumiCommand,
        envVars: pulumiEnv({
          ...process.env,
          PULUMI_BACKEND_URL: `file://${join(DEMO_DIR, "backend")}`,
          PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE,
          VOICEPLATFORM_BASE_URL: emulator.baseUrl,
          VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
          VOICEPLATFORM_API_KEY: DEMO_API_KEY,
        }) as Record<string, string>,
      },
    );
    await stack.setAllConfig({
      "voice-platform-demo:sipPassword": { value: "demo-sip-password", secret: true },
      "voice-platform-demo:crmToken": { value: "demo-crm-token", secret: true },
    });

    if (args.has("--destroy")) {
      say("pulumi destroy --yes");
      await stack.destroy({ onOutput: (text) => process.stdout.write(text) });
      showLeftovers(cli.binDir);
      return;
    }

    await emulator.newRequests();
    say(`pulumi preview (stack ${STACK})`);
    await stack.preview({ onOutput: (text) => process.stdout.write(text) });
    say(`The preview sent ${(await emulator.newRequests()).length} requests to the platform`);
    say(`pulumi up --yes (stack ${STACK})`);
    // stack.up() skips the preview phase, which is fine because the preview just above ran it.
    const up = await stack.up({ onOutput: (text) => process.stdout.write(text) });
    const sent = (await emulator.newRequests()).map((r) => `${r.method} ${r.path}`);
    say(`The update sent ${sent.length} requests to the platform`);
    for (const line of sent.sort()) process.stdout.write(`  ${line}\n`);
    const changes = Object.entries(up.summary.resourceChanges ?? {}).filter(
      ([kind]) => kind !== "same",
    );
    say(
      changes.length === 0
        ? "No changes: the stack already matches the program."
        : `Changes: ${changes.map(([kind, count]) => `${kind} ${count}`).join(", ")}`,
    );

    say("Stack outputs");
    for (const [name, output] of Object.entries(up.outputs)) {
      process.stdout.write(
        `  ${name.padEnd(20)} ${output.secret ? "[secret]" : JSON.stringify(output.value)}\n`,
      );
    }

    say("What the emulator holds");
    for (const [organization, held] of Object.entries((await emulator.state()).organizations)) {
      const subscriptions = Object.values(held.subscriptions).flat();
      process.stdout.write(`  organization ${organization}\n`);
      for (const voice of held.voices) {
        process.stdout.write(
          `    voice         ${voice.id}  "${voice.name}"  ${voice.supportedLocales.join(",")}  ${voice.samples.length} samples\n`,
        );
      }
      for (const carrier of held.carriers) {
        process.stdout.write(
          `    SIP carrier   ${carrier.id}  "${carrier.name}"  ${carrier.gateways?.length ?? 0} gateways, ${carrier.phoneNumbers?.length ?? 0} numbers\n`,
        );
      }
      for (const subscription of subscriptions) {
        process.stdout.write(
          `    webhook       campaign ${subscription.campaignId}  ${subscription.isAdvanced ? "advanced" : "simple  "}  ${subscription.url}\n`,
        );
      }
    }
    showLeftovers(cli.binDir);
  } finally {
    await emulator.stop();
    say("Emulator stopped. Run `npm run demo` again: Pulumi reports no changes.");
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
