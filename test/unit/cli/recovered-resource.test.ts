import { pendingOperations } from "../../../provider/cli/state/exported-state";
import { preflightReport } from "../../../provider/cli/state/pending-report";
import {
  idProblem,
  outputsAfterCreate,
  sealOutputs,
} from "../../../provider/cli/state/recovered-resource";
import {
  carrierInputs,
  cipher,
  deployment,
  pendingCreate,
  plain,
  webhookInputs,
} from "../../support/state-builders";

const PASSWORD = "sip-password-Q4m9x";
const TOKEN = "Bearer crm-token-Zr82kT";

/** Carrier inputs as the provider receives them: secrets in plain text. */
const carrier = () => ({ ...carrierInputs("trunk"), registerPassword: PASSWORD });

describe("idProblem", () => {
  it.each([
    ["", /is empty/],
    ["   ", /is empty/],
    [" abc", /whitespace or control characters/],
    ["abc\n", /whitespace or control characters/],
    ["urn:pulumi:dev::p::t::n", /is a URN/],
  ])("refuses %j for any resource", (id, message) => {
    expect(idProblem("Voice", id, {})).toMatch(message);
    expect(idProblem("SipCarrier", id, carrier())).toMatch(message);
  });

  it("takes any other voice or carrier id, since the API does not document their form", () => {
    expect(idProblem("Voice", "vc_123", {})).toBeUndefined();
    expect(
      idProblem("SipCarrier", "3f2b9a8e-0c1d-4e5f-8a9b-0c1d2e3f4a5b", carrier()),
    ).toBeUndefined();
  });

  it("takes only existingCarrierId for an adopted carrier", () => {
    const adopted = { ...carrier(), existingCarrierId: "carrier-1" };
    expect(idProblem("SipCarrier", "carrier-1", adopted)).toBeUndefined();
    expect(idProblem("SipCarrier", "carrier-2", adopted)).toMatch(/existingCarrierId "carrier-1"/);
  });

  it("takes any new webhook id of its campaign, and refuses an id an earlier version derived", () => {
    const id = `${webhookInputs().campaignId as string}/3b9c0f52-8d1e-4a7b-9f0c-2e5d6a7b8c9d`;
    expect(idProblem("CampaignWebhook", id, webhookInputs())).toBeUndefined();
    const example = /use a new one such as [0-9a-f]{24}\/[0-9a-f-]{36}$/;
    const problem = idProblem("CampaignWebhook", "65a1f0c2e4b0a1b2c3d4e5f6", webhookInputs());
    expect(problem).toMatch('"65a1f0c2e4b0a1b2c3d4e5f6" is not a campaign webhook id');
    expect(problem).toMatch("(<24-hex campaignId>/<UUID in lower case>)");
    expect(idProblem("CampaignWebhook", "65a1f0c2e4b0a1b2c3d4e5f6", webhookInputs())).toMatch(
      example,
    );
    expect(
      idProblem("CampaignWebhook", "65a1f0c2e4b0a1b2c3d4e5f6/0123456789abcdef", webhookInputs()),
    ).toMatch(/^is an id derived from a subscription's inputs, which earlier builds wrote/);
    expect(
      idProblem(
        "CampaignWebhook",
        "0123456789abcdef01234567/3b9c0f52-8d1e-4a7b-9f0c-2e5d6a7b8c9d",
        webhookInputs(),
      ),
    ).toMatch(
      /^names campaign 0123456789abcdef01234567, but this subscription's campaignId is 65a1f0c2e4b0a1b2c3d4e5f6/,
    );
  });
});

describe("sealOutputs", () => {
  it("reuses the stored ciphertext of a secret input the output copies, so no plaintext is written", () => {
    const sealed = sealOutputs(
      { name: "trunk", registerPassword: PASSWORD, carrierId: "c1" },
      { name: "trunk", registerPassword: cipher("pw") },
      { name: "trunk", registerPassword: PASSWORD },
      ["registerPassword"],
    );
    expect(sealed).toEqual({ name: "trunk", registerPassword: cipher("pw"), carrierId: "c1" });
  });

  it("marks what the engine marks: a nested secret inside a plain object, additionalSecretOutputs", () => {
    const sealed = sealOutputs(
      { advanced: { url: "u", headers: [{ name: "A", value: TOKEN }] }, token: "t", other: "o" },
      { advanced: { url: "u", headers: [{ name: "A", value: cipher("token") }] }, other: "o" },
      { advanced: { url: "u", headers: [{ name: "A", value: TOKEN }] }, other: "o" },
      ["token"],
    );
    // The array holding a secret is secret as a whole, as annotateSecrets does it.
    expect(sealed).toEqual({
      advanced: { url: "u", headers: plain([{ name: "A", value: TOKEN }]) },
      token: plain("t"),
      other: "o",
    });
  });
});

describe("preflightReport", () => {
  it("names every interrupted create, what identifies it, and one command; never a secret", () => {
    const state = deployment([
      pendingCreate("SipCarrier", "trunk-1", carrierInputs("trunk-1")),
      pendingCreate(
        "CampaignWebhook",
        "crm",
        { ...webhookInputs(), isAdvanced: true, advancedWebhook: cipher("hook") },
        { frontEnd: "plugin" },
      ),
      pendingCreate(
        "Voice",
        "agent",
        { name: "Agent", files: ["samples/a.wav"] },
        { type: "updating" },
      ),
    ]);
    const pending = pendingOperations(state);
    const text = preflightReport(pending, {
      stackLabel: "Stack dev",
      flags: "--stack dev",
      knownIds: new Map([[pending.ours[1]!.urn, "65a1f0c2e4b0a1b2c3d4e5f6/0123456789abcdef"]]),
    });
    expect(text).toMatch("3 interrupted operation(s)");
    expect(text).toMatch("on pulumi-voice-platform resources");
    expect(text).toMatch("2 of them create(s)");
    expect(text).toMatch('create of SipCarrier "trunk-1" (dynamic resource)');
    expect(text).toMatch("gateways: 203.0.113.10:5060/udp (inbound, outbound)");
    expect(text).toMatch("phoneNumbers: +14155550100");
    expect(text).toMatch('create of CampaignWebhook "crm" (provider plugin)');
    expect(text).toMatch("advancedWebhook: [secret]");
    expect(text).toMatch('update of Voice "agent"');
    expect(text).toMatch("sends the same PUT again");
    expect(text).toMatch(
      [
        "npx pulumi-voice-platform recover --stack dev",
        `'${pending.ours[0]!.urn}=<carrier id>'`,
        `'${pending.ours[1]!.urn}=65a1f0c2e4b0a1b2c3d4e5f6/0123456789abcdef'`,
        `--forget '${pending.ours[2]!.urn}'`,
      ].join(" \\\n    "),
    );
    expect(text).not.toMatch(/ciphertext/);
  });

  it("says there is nothing to do when only other packages have pending operations", () => {
    const text = preflightReport(
      pendingOperations(deployment([pendingCreate("aws:s3/bucket:Bucket", "b", {})])),
      {
        stackLabel: "Stack dev",
        flags: "",
        knownIds: new Map(),
      },
    );
    expect(text).toMatch("Stack dev: no pending operation");
    expect(text).toMatch("1 pending operation(s) on other packages' resources");
  });
});

describe("a plugin resource", () => {
  it("is recorded without __provider, which only dynamic resources carry", async () => {
    const dynamic: Record<string, unknown> = {
      ...carrierInputs("trunk"),
      registerPassword: PASSWORD,
    };
    const { __provider: _ignored, ...inputs } = dynamic;
    const outputs = await outputsAfterCreate("SipCarrier", inputs, "carrier-1", "/");
    expect(outputs).not.toHaveProperty("__provider");
    expect(outputs).toMatchObject({ name: "trunk", carrierId: "carrier-1" });
    const withProvider = await outputsAfterCreate(
      "SipCarrier",
      carrierInputs("trunk", { registerPassword: PASSWORD }),
      "carrier-1",
      "/",
    );
    expect(withProvider.__provider).toBe(carrierInputs("trunk").__provider);
  });
});
