/**
 * `import` given a value not known at preview (another resource's id, created in the same run) is
 * refused before any provider call, so nothing is adopted by a guess and nothing is sent. From
 * YAML the YAML host refuses it (it takes only a string); the engine refuses unknown import ids
 * since CLI 3.258 for SDKs that can send one (Go's `pulumi.Import` takes an IDInput). The docs
 * tell users to give `import` a literal id or stack config.
 */
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { YamlStack, type CommandResult } from "./yaml-stack";

const API_KEY = "import-unknown-api-key-6Qe2";

const { describe: describeWithYaml } = requirePulumiCli({
  languageHosts: ["yaml"],
  purpose: "import with an unknown id",
});

const text = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

const PROGRAM = `name: import-unknown
runtime: yaml
resources:
  first:
    type: voiceplatform:index:SipCarrier
    properties:
      name: first
  adopted:
    type: voiceplatform:index:SipCarrier
    properties:
      name: adopted
    options:
      import: \${first.id}
`;

describeWithYaml("import given an id only known after the run, from YAML", () => {
  jest.setTimeout(600_000);
  let emulator: RunningEmulator;
  let stack: YamlStack;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    stack = await YamlStack.create(PROGRAM);
    await stack.config({
      "voiceplatform:baseUrl": emulator.baseUrl,
      "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
    });
    await stack.config({ "voiceplatform:apiKey": API_KEY }, true);
  }, 600_000);

  afterAll(async () => {
    await stack?.remove();
    await emulator?.stop();
  });

  it.each([["preview"], ["up", "--yes"]])(
    "`pulumi %s` refuses it before any call and sends nothing",
    async (...command) => {
      const result = await stack.pulumi(command);
      expect(result.code).not.toBe(0);
      expect(text(result)).toMatch(/import must be a string/);
      expect(await emulator.newRequests()).toEqual([]);
      expect(Object.keys(await stack.resources())).not.toContain("adopted");
    },
  );
});
