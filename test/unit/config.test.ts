import { ConfigurationError } from "../../provider/settings/errors";
import {
  missingSetting,
  readSettings,
  rememberEngineConfig,
  rememberProviderSettings,
  settingOrigin,
  settingSources,
} from "../../provider/settings/config";
import { checkProviderConfig } from "../../provider/plugin/provider-config";
import { authenticationHint, permissionHint } from "../../provider/platform/errors";
import { resetProcessState } from "../../provider/settings/process-state";
import { processSettings } from "../support/call-context";

const engine = (values: Record<string, string>) =>
  rememberEngineConfig(processSettings(), { get: (key) => values[key] });

afterEach(resetProcessState);

describe("readSettings", () => {
  it("prefers stack config, falls back to the environment, then to defaults", () => {
    engine({
      "voiceplatform:baseUrl": "https://api.example.com/",
      "voiceplatform:maxRetries": "2",
    });
    const settings = readSettings(processSettings(), {
      VOICEPLATFORM_BASE_URL: "https://ignored.example.com",
      VOICEPLATFORM_API_KEY: "env-key",
      VOICEPLATFORM_CAMPAIGNS_BASE_URL: "https://campaigns.example.com",
    });
    expect(settings).toEqual({
      apiKey: "env-key",
      baseUrl: "https://api.example.com",
      campaignsBaseUrl: "https://campaigns.example.com",
      subOrganizationId: undefined,
      authScheme: undefined,
      timeoutSeconds: 60,
      maxRetries: 2,
      maxConcurrency: 16,
    });
  });

  it("reads the environment at call time, not once", () => {
    const env: NodeJS.ProcessEnv = { VOICEPLATFORM_SUB_ORGANIZATION_ID: "sub_a" };
    expect(readSettings(processSettings(), env).subOrganizationId).toBe("sub_a");
    env.VOICEPLATFORM_SUB_ORGANIZATION_ID = "sub_b";
    expect(readSettings(processSettings(), env).subOrganizationId).toBe("sub_b");
  });

  it("rejects bad numbers and URLs with the key, the value and the fix", () => {
    expect(() => readSettings(processSettings(), { VOICEPLATFORM_MAX_CONCURRENCY: "0" })).toThrow(
      /voiceplatform:maxConcurrency \(or VOICEPLATFORM_MAX_CONCURRENCY\) is "0".*whole number from 1 to 256/,
    );
    expect(() =>
      readSettings(processSettings(), { VOICEPLATFORM_TIMEOUT_SECONDS: "soon" }),
    ).toThrow(/timeoutSeconds.*"soon"/);
    expect(() =>
      readSettings(processSettings(), { VOICEPLATFORM_BASE_URL: "api.example.com" }),
    ).toThrow(
      /voiceplatform:baseUrl \(or VOICEPLATFORM_BASE_URL\) is "api.example.com", which must be an absolute https URL/,
    );
  });

  it("names both ways to set a missing setting", () => {
    const error = missingSetting("apiKey", 'create SIP carrier "x"');
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain("voiceplatform:apiKey is not set");
    expect(error.message).toContain('create SIP carrier "x" needs it');
    expect(error.message).toContain("`pulumi config set --secret voiceplatform:apiKey <value>`");
    expect(error.message).toContain("its `apiKey` input");
    expect(error.message).toContain("export VOICEPLATFORM_API_KEY");
  });
});

describe("setting sources", () => {
  it("describe every provider input in one line and mark the API key secret", () => {
    for (const source of Object.values(settingSources)) {
      expect(source.description).toMatch(/^[A-Z][^\n]+\.$/);
    }
    expect(
      Object.entries(settingSources)
        .filter(([, source]) => "secret" in source && source.secret)
        .map(([name]) => name),
    ).toEqual(["apiKey"]);
  });
});

describe("a secret setting with white space at either end is refused, never trimmed or shown", () => {
  const key = "key-with-edges-48213";
  const messageOf = (work: () => unknown): string => {
    try {
      work();
    } catch (error) {
      return (error as Error).message;
    }
    return "";
  };

  it.each([
    ["a trailing space", `${key} `],
    ["a leading space", ` ${key}`],
    ["a trailing line break", `${key}\n`],
    ["a trailing tab", `${key}\t`],
  ])("from the stack config or the environment: %s", (_case, value) => {
    const expected =
      /^voiceplatform:apiKey \(or VOICEPLATFORM_API_KEY\) must not start or end with white space \(a space, tab or line break\): remove it/;
    engine({ "voiceplatform:apiKey": value });
    const fromConfig = messageOf(() => readSettings(processSettings(), {}));
    expect(fromConfig).toMatch(expected);
    expect(fromConfig).not.toContain(key);
    engine({});
    const fromEnv = messageOf(() =>
      readSettings(processSettings(), { VOICEPLATFORM_API_KEY: value }),
    );
    expect(fromEnv).toMatch(expected);
    expect(fromEnv).not.toContain(key);
  });

  it("as an explicit provider's input, or the variable standing in for it (the plugin's CheckConfig)", () => {
    const given = checkProviderConfig({ apiKey: `${key} ` }, {}, () => false);
    expect(given.failures).toEqual([
      {
        property: "apiKey",
        reason: expect.stringMatching(/^must not start or end with white space .*: remove it/),
      },
    ]);
    const fallback = checkProviderConfig({}, { VOICEPLATFORM_API_KEY: `${key}\n` }, () => false);
    expect(fallback.failures).toEqual([
      {
        property: "apiKey",
        reason: expect.stringMatching(
          /^is not set, and its fallback VOICEPLATFORM_API_KEY is "\[redacted\]", which must not start or end with white space/,
        ),
      },
    ]);
    expect(JSON.stringify([given, fallback])).not.toContain(key);
  });

  it("an empty value is no value, as before", () => {
    expect(readSettings(processSettings(), { VOICEPLATFORM_API_KEY: "" }).apiKey).toBeUndefined();
  });
});

describe("where the key in use came from, as a 401 or 403 says it", () => {
  it.each([
    [
      "the stack config",
      () => engine({ "voiceplatform:apiKey": "k-1" }),
      {},
      "the stack config key voiceplatform:apiKey",
    ],
    [
      "the environment",
      () => engine({}),
      { VOICEPLATFORM_API_KEY: "k-2" },
      "the environment variable VOICEPLATFORM_API_KEY",
    ],
    [
      "the default provider of the plugin (the stack config under the input's name)",
      () =>
        rememberProviderSettings(
          processSettings(),
          { apiKey: "k-3" },
          "urn:pulumi:dev::proj::pulumi:providers:voiceplatform::default_0_1_0",
        ),
      {},
      "the stack config key voiceplatform:apiKey",
    ],
    [
      "an explicit provider of the plugin",
      () =>
        rememberProviderSettings(
          processSettings(),
          { apiKey: "k-4" },
          "urn:pulumi:dev::proj::pulumi:providers:voiceplatform::eu-key",
        ),
      {},
      'the `apiKey` input of the explicit provider "eu-key"',
    ],
    [
      "an explicit provider without the input, whose variable stands in",
      () =>
        rememberProviderSettings(
          processSettings(),
          {},
          "urn:pulumi:dev::proj::pulumi:providers:voiceplatform::eu-key",
        ),
      { VOICEPLATFORM_API_KEY: "k-5" },
      "the environment variable VOICEPLATFORM_API_KEY",
    ],
  ])("%s", (_case, given, env, origin) => {
    given();
    expect(settingOrigin(processSettings(), "apiKey", env)).toContain(origin);
    const saved = process.env.VOICEPLATFORM_API_KEY;
    Object.assign(process.env, env);
    try {
      const from = settingOrigin(processSettings(), "apiKey") ?? "";
      expect(authenticationHint(from)).toContain("refused the API key");
      expect(authenticationHint(from)).toContain(origin);
      expect(permissionHint("sub_a", from)).toContain(`owns the API key from ${origin}`);
      expect(permissionHint(undefined, from)).toMatch(/^The API key from .* may not do this/);
      expect(permissionHint(undefined, from)).toContain(origin);
    } finally {
      if (saved === undefined) delete process.env.VOICEPLATFORM_API_KEY;
      else process.env.VOICEPLATFORM_API_KEY = saved;
    }
  });
});
