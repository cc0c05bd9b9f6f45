/**
 * The first five minutes, automated: `npm run demo` twice (the second run changes nothing) and the
 * environments example previewed for each of its stacks. (The stamp-out script against the
 * emulator, from a copy as a team runs it: stamp-out.test.ts.) Needs the Pulumi CLI (`npm run pulumi:install`): skipped with one message without it,
 * failed in CI.
 */
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { copyEnvironmentsExample } from "../support/stamp-out-runners";
import { linkPackageIntoNodeModules } from "./link-package";
import { pulumiEnv, REPO_ROOT } from "../pulumi-cli/locate";

const run = promisify(execFile);
const { cli, describe: withCli } = requirePulumiCli({ purpose: "the examples' tests" });

const tsx = (script: string, args: string[] = [], env: Record<string, string> = {}) =>
  run(process.execPath, [join(REPO_ROOT, "node_modules/tsx/dist/cli.mjs"), script, ...args], {
    cwd: REPO_ROOT,
    env: pulumiEnv({ ...process.env, FORCE_COLOR: "0", ...env }),
    maxBuffer: 64 * 1024 * 1024,
  });

withCli("examples on the real engine", () => {
  jest.setTimeout(600_000);

  test("npm run demo creates everything, and a second run changes nothing", async () => {
    const first = await tsx("test/examples/run-demo.ts", ["--reset"]);
    expect(first.stdout).toContain("Changes: create 5");
    expect(first.stdout).toContain("The preview sent 0 requests");
    // One request per object: the voice's clone, the carrier, the two subscriptions.
    expect(first.stdout).toContain("The update sent 4 requests");
    expect(first.stdout.match(/^ {2}POST \/voices\/voice-clone$/gm)).toHaveLength(1);
    expect(first.stdout).toMatch(/voice +\w+ +"Support agent" +en-US,es-ES +2 samples/);
    expect(first.stdout).toMatch(/SIP carrier +\w+ +"main-trunk" +2 gateways, 1 numbers/);
    expect(first.stdout).toContain("advanced  https://crm.example.com/voice-events");
    expect(first.stdout).not.toMatch(/demo-sip-password|demo-crm-token|demo-api-key/);

    const second = await tsx("test/examples/run-demo.ts");
    expect(second.stdout).toContain("No changes:");
    expect(second.stdout).toContain("already matches the program");
    expect(second.stdout).toContain("The preview sent 0 requests");
    expect(second.stdout).toContain("The update sent 0 requests");
  });

  test("the environments example previews cleanly for dev, staging and prod", async () => {
    linkPackageIntoNodeModules(REPO_ROOT);
    const example = copyEnvironmentsExample();
    const backend = join(example.root, "backend");
    mkdirSync(backend);
    try {
      const pulumiCommand = await PulumiCommand.get({
        root: join(cli!.binDir, ".."),
        skipVersionCheck: true,
      });
      for (const stackName of ["dev", "staging", "prod"]) {
        const stack = await LocalWorkspace.createOrSelectStack(
          { stackName, workDir: example.project },
          {
            pulumiCommand,
            envVars: pulumiEnv({
              ...process.env,
              PULUMI_BACKEND_URL: `file://${backend}`,
              PULUMI_CONFIG_PASSPHRASE: "examples-test",
            }) as Record<string, string>,
          },
        );
        await stack.setConfig("sipPassword", { value: `${stackName}-sip-password`, secret: true });
        const preview = await stack.preview();
        expect(preview.changeSummary).toEqual({ create: 4 });
      }
    } finally {
      example.remove();
    }
  });
});
