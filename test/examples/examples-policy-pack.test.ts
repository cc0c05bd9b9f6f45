/**
 * @slow Every shipped example passes the shipped policy pack: each is copied out of the repository
 * (example-copy.ts) and previewed with the pack inside the installed package, as a team runs it
 * from docs/policies.md (`pulumi preview --policy-pack node_modules/pulumi-voice-platform/dist/
 * provider/policy/pack`), with its secrets set as its README says. No rule reports anything, and
 * the preview sends nothing. All examples in one file: the engine tier is costly.
 */
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { POLICY_PACKAGE } from "../support/policy-package";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { describeE2E, E2EProject, errorText } from "../e2e/harness";
import { runTool } from "../languages/toolchains";
import { copyExampleOut, exampleSecrets, projectName, runnableExamples } from "./example-copy";

const API_KEY = "examples-policy-api-key-3e1";
describeE2E("the shipped examples, copied out, pass the shipped policy pack", () => {
  let emulator: RunningEmulator;
  /**
   * The pack's own dependency, which the provider does not bring (docs/policies.md), installed
   * once beside the copies (whose own package.json names packages the registry does not have yet)
   * and linked into each copy's node_modules, where the pack's index.js finds it.
   */
  let policyDeps: string;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY, subOrganizationIds: ["sub-dev"] });
    policyDeps = await mkdtemp(join(tmpdir(), "examples-policy-deps-"));
    await writeFile(join(policyDeps, "package.json"), '{ "private": true }\n');
    await runTool(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        POLICY_PACKAGE,
      ],
      { cwd: policyDeps },
    );
  });
  afterAll(async () => {
    await emulator?.stop();
    if (policyDeps !== undefined) await rm(policyDeps, { recursive: true, force: true });
  });

  test.each(runnableExamples)(
    "%s: a preview with the pack reports no violation",
    async (example) => {
      const copy = await copyExampleOut(example);
      try {
        const installed = join(copy.root, "installed");
        await symlink(
          join(policyDeps, "node_modules", "@pulumi", "policy"),
          join(installed, "node_modules", "@pulumi", "policy"),
          "dir",
        );
        const pack = join(
          installed,
          "node_modules",
          "pulumi-voice-platform",
          "dist",
          "provider",
          "policy",
          "pack",
        );
        const namespace = await projectName(copy.dir);
        const project = await E2EProject.forDirectory(copy.dir, copy.root);
        // PWD as a shell sets it where `pulumi` runs: the pack reads the stack's config file there.
        const stack = await project.stack("dev", {
          env: { ...copy.env, VOICEPLATFORM_API_KEY: API_KEY, PWD: copy.dir },
          config: {
            "voiceplatform:baseUrl": { value: emulator.baseUrl },
            "voiceplatform:campaignsBaseUrl": { value: emulator.campaignsBaseUrl },
            ...Object.fromEntries(
              exampleSecrets[example].map((key) => [
                `${namespace}:${key}`,
                { value: `${key}-value-7c2`, secret: true },
              ]),
            ),
          },
        });
        await emulator.reset();
        const preview = await stack.preview({ policyPacks: [pack] }).catch((error: unknown) => {
          throw new Error(errorText(error));
        });
        expect(preview.stdout).toContain("Policies:");
        expect(preview.stdout).not.toMatch(/\[(mandatory|advisory)\]/);
        expect(await emulator.newRequests()).toEqual([]);
      } finally {
        await rm(copy.root, { recursive: true, force: true });
      }
    },
  );
});
