/**
 * examples/yaml copied out of the repository (example-copy.ts), its dependencies installed as its
 * README says, run against the emulator with the real CLI: a preview of the new stack sends
 * nothing, `pulumi up --yes` (with its preview) creates every object once, and a preview after it
 * has no changes and sends nothing. The TypeScript examples and examples/python check the same
 * with their own tests (examples-own-tests.test.ts); examples/python, go and plugin-typescript are
 * also copied out by test/languages, whose scenario goes on to updates, replacement, import and
 * destroy.
 */
import { rm } from "node:fs/promises";
import { startEmulator, type RequestLogEntry, type RunningEmulator } from "../../provider/emulator";
import { describeE2E, E2EProject, errorText } from "../e2e/harness";
import { REPO_ROOT } from "../support/packed-package";
import { upWithPreview } from "../support/pulumi-up";
import { copyExampleOut, exampleSecrets, projectName, type RunnableExample } from "./example-copy";

const API_KEY = "copied-out-api-key-5d0c";
const CAMPAIGN = "65a1f0c2e4b0a1b2c3d4e5f6";

interface Case {
  readonly example: RunnableExample;
  readonly stack: string;
  /** The requests of the first up, one per object. */
  readonly creates: readonly string[];
}

const cases: readonly Case[] = [
  {
    example: "yaml",
    stack: "dev",
    creates: [
      `POST /campaigns/${CAMPAIGN}/webhook/subscribe 200`,
      "POST /organization/sip 201",
      "POST /voices/voice-clone 200",
    ],
  },
];

const requestLine = (r: RequestLogEntry) => `${r.method} ${r.path} ${r.status}`;

describeE2E("examples copied out of the repository, against the emulator", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY, subOrganizationIds: ["sub-dev"] });
  });
  afterAll(async () => emulator?.stop());

  for (const { example, stack: stackName, creates } of cases) {
    test(`${example}: preview sends nothing, up creates each object once, a second preview has no changes`, async () => {
      const copy = await copyExampleOut(example);
      try {
        expect(copy.dir.startsWith(REPO_ROOT)).toBe(false);
        const namespace = await projectName(copy.dir);
        const project = await E2EProject.forDirectory(copy.dir, copy.root);
        const stack = await project.stack(stackName, {
          env: { ...copy.env, VOICEPLATFORM_API_KEY: API_KEY },
          config: {
            "voiceplatform:baseUrl": { value: emulator.baseUrl },
            "voiceplatform:campaignsBaseUrl": { value: emulator.campaignsBaseUrl },
            ...Object.fromEntries(
              exampleSecrets[example].map((key) => [
                `${namespace}:${key}`,
                { value: `${key}-value`, secret: true },
              ]),
            ),
          },
        });
        await emulator.reset();
        const objects = creates.length;

        const preview = await stack.preview().catch((error: unknown) => {
          throw new Error(errorText(error));
        });
        expect(preview.changeSummary).toEqual({ create: objects + 1 });
        expect((await emulator.newRequests()).map(requestLine)).toEqual([]);

        const up = await upWithPreview(stack);
        expect(up.summary.resourceChanges).toEqual({ create: objects + 1 });
        expect((await emulator.newRequests()).map(requestLine).sort()).toEqual(creates);

        const again = await stack.preview();
        expect(again.changeSummary).toEqual({ same: objects + 1 });
        expect(await emulator.newRequests()).toEqual([]);
      } finally {
        await rm(copy.root, { recursive: true, force: true });
      }
    });
  }
});
