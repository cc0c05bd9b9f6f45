/**
 * `npm run example -- <name> [--destroy]`: runs one example against the platform emulator the
 * way a user runs a copy of it (example-copy.ts: copied out of the repository, the packed package
 * and the generated SDK installed as its README says), then removes the copy. The backend, the
 * stack's config file and the emulator's objects stay in .demo/<name>/ (git-ignored;
 * the tests give a folder of their own as `demoRoot`), so a
 * second run reports no changes. `npm run demo` does the same for examples/basic in place.
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator } from "../../provider/emulator";
import { locatePulumi, pulumiEnv, REPO_ROOT } from "../pulumi-cli/locate";
import { upWithPreview } from "../support/pulumi-up";
import {
  copyExampleOut,
  exampleSecrets,
  isRunnableExample,
  projectName,
  runnableExamples,
  type RunnableExample,
} from "./example-copy";

const API_KEY = "example-api-key";
/** environments commits Pulumi.dev.yaml; every other example gets the stack from scratch. */
const STACK = "dev";

function say(line: string): void {
  process.stdout.write(`\x1b[1m==> ${line}\x1b[0m\n`);
}

export async function runExample(
  example: RunnableExample,
  options: { destroy?: boolean; output?: (text: string) => void; demoRoot?: string } = {},
): Promise<Record<string, unknown>> {
  const output = options.output ?? ((text: string) => process.stdout.write(text));
  const cli = locatePulumi();
  if (!cli) throw new Error("No Pulumi CLI found: run `npm run pulumi:install`.");
  const demoDir = join(options.demoRoot ?? join(REPO_ROOT, ".demo"), example);
  mkdirSync(join(demoDir, "backend"), { recursive: true });
  const stackFile = `Pulumi.${STACK}.yaml`;

  say(`copying examples/${example} out and installing its dependencies`);
  const copy = await copyExampleOut(example);
  // The stack's encryption salt lives in its config file: it travels from run to run.
  if (existsSync(join(demoDir, stackFile))) {
    copyFileSync(join(demoDir, stackFile), join(copy.dir, stackFile));
  }
  const emulator = await startEmulator({
    apiKey: API_KEY,
    subOrganizationIds: ["sub-dev"],
    stateFile: join(demoDir, "emulator-state.json"),
  });
  try {
    const env = pulumiEnv({
      ...process.env,
      ...copy.env,
      PULUMI_BACKEND_URL: `file://${join(demoDir, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "example-passphrase",
      VOICEPLATFORM_API_KEY: API_KEY,
    }) as Record<string, string>;
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: STACK, workDir: copy.dir },
      {
        pulumiCommand: await PulumiCommand.get({
          root: join(cli.binDir, ".."),
          skipVersionCheck: true,
        }),
        envVars: env,
      },
    );
    const namespace = await projectName(copy.dir);
    await stack.setAllConfig({
      "voiceplatform:baseUrl": { value: emulator.baseUrl },
      "voiceplatform:campaignsBaseUrl": { value: emulator.campaignsBaseUrl },
      ...Object.fromEntries(
        exampleSecrets[example].map((key) => [
          `${namespace}:${key}`,
          { value: `example-${key}`, secret: true },
        ]),
      ),
    });
    if (options.destroy) {
      say(`pulumi destroy (examples/${example})`);
      await stack.destroy({ onOutput: output });
      return {};
    }
    say(`pulumi preview (examples/${example}) against the emulator at ${emulator.baseUrl}`);
    await emulator.newRequests();
    await stack.preview({ onOutput: output });
    output(`The preview sent ${(await emulator.newRequests()).length} requests\n`);
    say(`pulumi up --yes (examples/${example})`);
    const up = await upWithPreview(stack, { onOutput: output });
    output(`The update sent ${(await emulator.newRequests()).length} requests\n`);
    return Object.fromEntries(Object.entries(up.outputs).map(([name, o]) => [name, o.value]));
  } finally {
    if (existsSync(join(copy.dir, stackFile))) {
      copyFileSync(join(copy.dir, stackFile), join(demoDir, stackFile));
    }
    await emulator.stop();
    await rm(copy.root, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const example = process.argv[2] ?? "";
  if (!isRunnableExample(example)) {
    process.stderr.write(`usage: npm run example -- <${runnableExamples.join("|")}> [--destroy]\n`);
    process.exit(2);
  }
  runExample(example, { destroy: process.argv.includes("--destroy") }).catch((error: unknown) => {
    process.stderr.write(
      `example failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}
