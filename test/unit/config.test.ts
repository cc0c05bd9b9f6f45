import { ConfigurationError } from "../../provider/settings/errors";
import {
  missingSetting,
  readSettings,
  rememberEngineConfig,
  settingSources,
} from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";

const engine = (values: Record<string, string>) =>
  rememberEngineConfig({ get: (key) => values[key] });

afterEach(resetProcessState);

describe("readSettings", () => {
  it("prefers stack config, falls back to the environment, then to defaults", () => {
    engine({
      "voiceplatform:baseUrl": "https://api.example.com/",
      "voiceplatform:maxRetries": "2",
    });
    const settings = readSettings({
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
    expect(readSettings(env).subOrganizationId).toBe("sub_a");
    env.VOICEPLATFORM_SUB_ORGANIZATION_ID = "sub_b";
    expect(readSettings(env).subOrganizationId).toBe("sub_b");
  });

  it("rejects bad numbers and URLs with the key, the value and the fix", () => {
    expect(() => readSettings({ VOICEPLATFORM_MAX_CONCURRENCY: "0" })).toThrow(
      'voiceplatform:maxConcurrency (or VOICEPLATFORM_MAX_CONCURRENCY) is "0", which must be a whole number from 1 to 256.',
    );
    expect(() => readSettings({ VOICEPLATFORM_TIMEOUT_SECONDS: "soon" })).toThrow(
      /timeoutSeconds.*"soon"/,
    );
    expect(() => readSettings({ VOICEPLATFORM_BASE_URL: "api.example.com" })).toThrow(
      /voiceplatform:baseUrl \(or VOICEPLATFORM_BASE_URL\) is "api.example.com", which must be an absolute https URL/,
    );
  });

  it("names both ways to set a missing setting", () => {
    const error = missingSetting("apiKey", 'create SIP carrier "x"');
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      'voiceplatform:apiKey is not set, and create SIP carrier "x" needs it. Set it with ' +
        "`pulumi config set --secret voiceplatform:apiKey <value>` (an explicit provider: its `apiKey` input), or export VOICEPLATFORM_API_KEY.",
    );
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
