/**
 * What the plugin says about its key, from a Pulumi YAML program under the real CLI (issue 38):
 * a key with white space at either end is refused at preview, naming the setting and never
 * showing the value, whether the stack config or an explicit provider's input holds it; and a key
 * the platform refuses (401) names where that key came from: the explicit provider's `apiKey`
 * input, the stack config key `voiceplatform:apiKey`, or the variable `VOICEPLATFORM_API_KEY`.
 */
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { YamlStack, type CommandResult } from "./yaml-stack";

const API_KEY = "plugin-messages-api-key-3Jd7";
const WRONG_EXPLICIT = "wrong-explicit-key-81626";
const WRONG_CONFIG = "wrong-config-key-27345";
const WRONG_ENV = "wrong-env-key-59018";
const SECRETS = [API_KEY, WRONG_EXPLICIT, WRONG_CONFIG, WRONG_ENV];

const { describe: describeYaml } = requirePulumiCli({
  languageHosts: ["yaml"],
  purpose: "the plugin's messages about its key, from YAML",
});

const text = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

function program(emulator: RunningEmulator): string {
  return `name: plugin-messages
runtime: yaml
config:
  explicitKey:
    type: string
    secret: true
resources:
  eu:
    type: pulumi:providers:voiceplatform
    properties:
      apiKey: \${explicitKey}
      baseUrl: ${emulator.baseUrl}
      campaignsBaseUrl: ${emulator.campaignsBaseUrl}
  viaExplicit:
    type: voiceplatform:index:SipCarrier
    properties:
      name: via-explicit
    options:
      provider: \${eu}
  viaDefault:
    type: voiceplatform:index:SipCarrier
    properties:
      name: via-default
`;
}

describeYaml("the plugin's messages about its key, from a YAML program", () => {
  jest.setTimeout(600_000);
  let emulator: RunningEmulator;
  let stack: YamlStack;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    stack = await YamlStack.create(program(emulator));
    await stack.config({
      "voiceplatform:baseUrl": emulator.baseUrl,
      "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
    });
  }, 600_000);

  afterAll(async () => {
    await stack?.remove();
    await emulator?.stop();
  });

  async function requests(): Promise<number> {
    return (await emulator.newRequests()).length;
  }

  it("a key with white space at either end fails the preview, naming the setting and never showing the key", async () => {
    await stack.config({ "voiceplatform:apiKey": `${API_KEY} `, explicitKey: API_KEY }, true);
    const fromConfig = await stack.pulumi(["preview"]);
    expect(fromConfig.code).not.toBe(0);
    expect(text(fromConfig)).toMatch(
      /pulumi:providers:voiceplatform resource 'default[^']*': property apiKey value \{.*\[secret\].*\} has a problem: must not start or end with white space \(a space, tab or line break\): remove it/,
    );
    await stack.config({ "voiceplatform:apiKey": API_KEY, explicitKey: `${API_KEY}\n` }, true);
    const fromInput = await stack.pulumi(["preview"]);
    expect(fromInput.code).not.toBe(0);
    expect(text(fromInput)).toMatch(
      /pulumi:providers:voiceplatform resource 'eu': property apiKey value \{.*\[secret\].*\} has a problem: must not start or end with white space/,
    );
    expect(await requests()).toBe(0);
  });

  it("a refused key names where it came from: the explicit provider's input, the stack config", async () => {
    await stack.config({ "voiceplatform:apiKey": WRONG_CONFIG, explicitKey: WRONG_EXPLICIT }, true);
    const up = await stack.pulumi(["up", "--yes"]);
    expect(up.code).not.toBe(0);
    expect(text(up)).toMatch(
      /viaExplicit[\s\S]*401 Unauthorized[^\n]*The platform refused the API key from the `apiKey` input of the explicit provider "eu"/,
    );
    expect(text(up)).toMatch(
      /viaDefault[\s\S]*401 Unauthorized[^\n]*The platform refused the API key from the stack config key voiceplatform:apiKey: check it there/,
    );
  });

  it("without a stack key, a refused key from the environment names the variable", async () => {
    const fromEnv = await stack.otherStack("env", { VOICEPLATFORM_API_KEY: WRONG_ENV });
    await fromEnv.config({
      "voiceplatform:baseUrl": emulator.baseUrl,
      "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
    });
    await fromEnv.config({ explicitKey: API_KEY }, true);
    const up = await fromEnv.pulumi(["up", "--yes"]);
    expect(up.code).not.toBe(0);
    expect(text(up)).toMatch(
      /viaDefault[\s\S]*401 Unauthorized[^\n]*The platform refused the API key from the environment variable VOICEPLATFORM_API_KEY: check it there/,
    );
    const printed = [...stack.transcript, ...fromEnv.transcript].join("\n");
    for (const secret of SECRETS) expect(printed).not.toContain(secret);
  });
});
