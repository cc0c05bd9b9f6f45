/**
 * The one layer both front ends serve a descriptor through, on the real descriptors and with no
 * platform configured: anything that tried a request would fail for want of an API key, so a
 * passing preview or adoption also shows that nothing was sent.
 */
import { UNKNOWN } from "../../provider/core/engine-values";
import {
  ADOPTED,
  IMPORTED_WITHOUT_READ,
  servedResource,
} from "../../provider/core/served-resource";
import { InputError } from "../../provider/platform/errors";
import { redactSecrets } from "../../provider/platform/redaction";
import { campaignWebhook } from "../../provider/resources/campaign-webhook";
import { sipCarrier } from "../../provider/resources/sip-carrier";
import { voice } from "../../provider/resources/voice";
import { rememberEngineConfig } from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";
import type { Inputs } from "../../provider/core/resource-descriptor";
import type { LedgerEvent } from "../../provider/core/object-ledger";
import { campaignId, carrierInputs, voiceInputs, webhookInputs } from "../support/builders";
import { recordSaid } from "../support/said";
import { callContext, processSettings } from "../support/call-context";

const carrier = servedResource(sipCarrier);
const webhookId = `${campaignId}/3b241101-e2bb-4255-8caf-4136c566a962`;
const otherCampaignsWebhookId = "0123456789abcdef01234567/3b241101-e2bb-4255-8caf-4136c566a962";

let said: string[];
beforeEach(() => {
  rememberEngineConfig(processSettings(), { get: () => undefined });
  said = recordSaid();
});
afterEach(async () => {
  jest.restoreAllMocks();
  await resetProcessState();
});

async function checked(inputs = carrierInputs()) {
  const { inputs: news, failures } = await carrier.check(callContext(), {}, inputs);
  expect(failures).toEqual([]);
  return news;
}

test("a preview create answers the planned state, platform outputs unknown, and no id", async () => {
  const news = await checked();
  const planned = await carrier.create(callContext(), news, true);
  expect(planned.id).toBeUndefined();
  expect(planned.state).toEqual({ ...news, carrierId: UNKNOWN });
});

test("a preview update keeps what the update does not rewrite and marks what it does", async () => {
  const served = servedResource(voice);
  const olds = { name: "Old", voiceId: "vx", organizationId: "o1", samples: [] };
  const planned = (await served.update(callContext(), "v1", olds, { name: "New" }, true)) as Record<
    string,
    unknown
  >;
  expect(planned).toMatchObject({ name: "New", voiceId: "vx", organizationId: UNKNOWN });
});

describe("check failures, as the engine prints them", () => {
  test("a nested problem names its top-level input, the engine printing that value, and its place and value in the reason", async () => {
    const served = servedResource(voice);
    const { failures } = await served.check(
      callContext(),
      {},
      voiceInputs({ supportedLocales: ["english"] }),
    );
    expect(failures).toEqual([
      {
        property: "supportedLocales",
        reason:
          'supportedLocales[0] ("english") must be a locale code in the form language-REGION, e.g. en-US',
      },
    ]);
  });

  test("a top-level problem keeps its property: the engine prints its value", async () => {
    const { failures } = await carrier.check(callContext(), {}, carrierInputs({ name: "" }));
    expect(failures).toEqual([
      { property: "name", reason: "must not be empty: remove it or give a value" },
    ]);
  });

  test("a secret's problem names no property, so the engine prints no value, and shows [secret]", async () => {
    const { failures } = await carrier.check(
      callContext(),
      {},
      carrierInputs({ registerPassword: 4217 }),
    );
    expect(failures).toEqual([
      { property: "", reason: "registerPassword must be a string, not [secret]" },
    ]);
    const served = servedResource(campaignWebhook);
    const hook = webhookInputs({
      isAdvanced: true,
      advancedWebhook: {
        url: "https://crm.example.com/hook",
        headers: [{ name: "X-Token", value: "line\nbreak-token-value" }],
      },
    });
    const answer = await served.check(callContext(), {}, hook);
    expect(answer.failures).toEqual([
      {
        property: "",
        reason:
          "advancedWebhook.headers[0].value ([secret]) must not contain line breaks or NUL characters",
      },
    ]);
    expect(JSON.stringify(answer.failures)).not.toContain("break-token-value");
  });

  test("a name that is no input names no property: its value is never printed", async () => {
    const { failures } = await carrier.check(
      callContext(),
      {},
      carrierInputs({ register_password: "pw-1234" }),
    );
    expect(failures).toEqual([
      {
        property: "",
        reason:
          'register_password is not an input of SipCarrier (did you mean "registerPassword"?); remove it or fix its name',
      },
    ]);
  });
});

describe("warnings", () => {
  test("are said when the inputs earn them, not again for inputs stored with them", async () => {
    const served = servedResource(campaignWebhook);
    const plain = webhookInputs({ url: "http://hooks.example.com/calls" });
    const first = await served.check(callContext(), {}, plain);
    expect(said.filter((line) => line.includes("is not https"))).toHaveLength(1);
    await resetProcessState();
    said.length = 0;
    await served.check(callContext(), first.inputs, plain);
    expect(said).toEqual([]);
  });
});

describe("diff", () => {
  test("drops what ignoreChanges names and replaces what replaceOnChanges names", async () => {
    const served = servedResource(voice);
    const files = voiceInputs().files;
    const news = (
      await served.check(callContext(), {}, voiceInputs({ files, name: "Renamed", stability: 0.9 }))
    ).inputs;
    const checked = (await served.check(callContext(), {}, voiceInputs({ files }))).inputs;
    const olds = { ...(await voice.stateAfterCreate("v1", checked)) } as Record<string, unknown>;
    const plain = await served.diff(callContext(), "v1", olds, news);
    expect(plain.detailedDiff).toMatchObject({
      name: { kind: "update", replace: false },
      stability: { kind: "update", replace: false },
    });
    const ignored = await served.diff(callContext(), "v1", olds, news, {
      ignoreChanges: ["name"],
    });
    expect(Object.keys(ignored.detailedDiff)).not.toContain("name");
    const replaced = await served.diff(callContext(), "v1", olds, news, {
      replaceOnChanges: ["name"],
    });
    expect(replaced.replaces).toEqual(["name"]);
    expect(replaced.detailedDiff.name).toEqual({ kind: "update", replace: true });
    expect(
      (await served.diff(callContext(), "v1", olds, news, { replaceOnChanges: ["*"] })).replaces,
    ).toEqual(["name", "stability"]);
  });
});

describe("import and get: an id and no state", () => {
  test("an import reads an id into what it tells and the markers; the next diff and update record the declared inputs without a call", async () => {
    const read = await carrier.read(callContext(), "c-imported", {});
    expect(read).toEqual({
      state: { carrierId: "c-imported", [IMPORTED_WITHOUT_READ]: true },
      inputs: { [ADOPTED]: true },
    });
    expect(said.join("\n")).toMatch(
      /SipCarrier "c-imported" .*no read operation: only carrierId \(from the id\) is known/,
    );
    const news = await checked();
    const diff = await carrier.diff(callContext(), "c-imported", read.state, news);
    expect(diff.changes).toBe(true);
    expect(diff.replaces).toEqual([]);
    expect(diff.detailedDiff.name).toEqual({ kind: "add", replace: false });
    expect(await carrier.update(callContext(), "c-imported", read.state, news, true)).toEqual({
      ...news,
      carrierId: UNKNOWN,
    });
    expect(await carrier.update(callContext(), "c-imported", read.state, news)).toEqual({
      ...news,
      carrierId: "c-imported",
    });
  });

  test("a webhook's id tells its campaign", async () => {
    const served = servedResource(campaignWebhook);
    const read = await served.read(callContext(), webhookId, {});
    expect(read.state).toMatchObject({ campaignId });
  });

  test("an adopted object may lack a required input an ignoreChanges kept out, for as long as the stack holds it", async () => {
    const { name: _ignored, ...withoutName } = carrierInputs();
    const adoption = await carrier.check(callContext(), { [ADOPTED]: true }, withoutName);
    expect(adoption.failures).toEqual([]);
    expect(adoption.inputs[ADOPTED]).toBe(true);
    const later = await carrier.check(callContext(), adoption.inputs, withoutName);
    expect(later.failures).toEqual([]);
    // A create still needs it.
    expect((await carrier.check(callContext(), {}, withoutName)).failures).toEqual([
      { property: "name", reason: "is required: set it to a string" },
    ]);
    const recorded = await carrier.update(
      callContext(),
      "c-adopted",
      { [IMPORTED_WITHOUT_READ]: true },
      adoption.inputs,
    );
    expect(recorded).toMatchObject({ carrierId: "c-adopted" });
    expect(recorded).not.toHaveProperty(ADOPTED);
  });

  describe("the code `pulumi import` generates runs as it is, and the inputs declared later are an update", () => {
    /**
     * `pulumi import` reads the id, checks the read inputs against themselves (the engine only
     * warns about failures there) and records them; the code it prints holds those inputs only.
     */
    async function cliImport(served: ReturnType<typeof servedResource>, id: string) {
      const read = await served.read(callContext(), id, {});
      const checkedRead = await served.check(callContext(), read.inputs!, read.inputs!);
      return { read, checkedRead };
    }

    test("a webhook: the id tells its campaignId, the import checks without a failure or a crash", async () => {
      const served = servedResource(campaignWebhook);
      const { read, checkedRead } = await cliImport(served, webhookId);
      expect(read.inputs).toEqual({ campaignId, [ADOPTED]: true });
      expect(checkedRead.failures).toEqual([]);
      // The pasted code declares what the read gave: no change at all.
      const pasted = await served.check(callContext(), read.inputs!, { campaignId });
      expect(pasted.failures).toEqual([]);
      const same = await served.diff(callContext(), webhookId, read.state, pasted.inputs);
      expect(same.changes).toBe(false);
      // Declared later, the rest is recorded: an update, never a replacement.
      const declared = await served.check(
        callContext(),
        pasted.inputs,
        webhookInputs({ url: "http://hooks.example.com/calls" }),
      );
      expect(declared.failures).toEqual([]);
      const diff = await served.diff(callContext(), webhookId, read.state, declared.inputs);
      expect(diff).toMatchObject({ changes: true, replaces: [] });
      expect(diff.detailedDiff).toEqual({
        url: { kind: "add", replace: false },
        events: { kind: "add", replace: false },
      });
      const recorded = (await served.update(
        callContext(),
        webhookId,
        read.state,
        declared.inputs,
      )) as Inputs;
      expect(recorded).toEqual({ ...webhookInputs({ url: "http://hooks.example.com/calls" }) });
      // Every required input recorded: the adoption is over, a change replaces as for any webhook.
      const moved = await served.check(
        callContext(),
        declared.inputs,
        webhookInputs({ url: "https://b.example.com" }),
      );
      expect(
        (await served.diff(callContext(), webhookId, recorded, moved.inputs)).replaces,
      ).toEqual(["url"]);
    });

    test("the import option without url checks, warns about nothing it cannot read, and records nothing yet", async () => {
      const served = servedResource(campaignWebhook);
      const read = await served.read(callContext(), webhookId, {});
      const declared = await served.check(callContext(), read.inputs!, { campaignId, events: [] });
      expect(declared.failures).toEqual([]);
      const diff = await served.diff(callContext(), webhookId, read.state, declared.inputs);
      expect(diff.detailedDiff).toEqual({ events: { kind: "add", replace: false } });
      const recorded = (await served.update(
        callContext(),
        webhookId,
        read.state,
        declared.inputs,
      )) as Inputs;
      // url is still to be declared: the adoption stays open.
      expect(recorded).toEqual({ campaignId, events: [], [IMPORTED_WITHOUT_READ]: true });
      const later = await served.check(
        callContext(),
        declared.inputs,
        webhookInputs({ events: [] }),
      );
      expect(
        (await served.diff(callContext(), webhookId, recorded, later.inputs)).detailedDiff,
      ).toEqual({
        url: { kind: "add", replace: false },
      });
    });

    test.each([
      ["SipCarrier", sipCarrier, "c-imported"],
      ["Voice", voice, "v-imported"],
    ] as const)(
      "%s: the code holds no input; pasted, it is no change; the declaration is recorded without a call",
      async (_kind, descriptor, id) => {
        const served = servedResource(descriptor);
        const { read, checkedRead } = await cliImport(served, id);
        expect(read.inputs).toEqual({ [ADOPTED]: true });
        expect(checkedRead.failures).toEqual([]);
        const pasted = await served.check(callContext(), read.inputs!, {});
        expect(pasted.failures).toEqual([]);
        expect((await served.diff(callContext(), id, read.state, pasted.inputs)).changes).toBe(
          false,
        );
        const inputs = descriptor === voice ? voiceInputs() : carrierInputs();
        const declared = await served.check(callContext(), pasted.inputs, inputs);
        expect(declared.failures).toEqual([]);
        const diff = await served.diff(callContext(), id, read.state, declared.inputs);
        expect(diff.changes).toBe(true);
        expect(diff.replaces).toEqual([]);
        const recorded = (await served.update(
          callContext(),
          id,
          read.state,
          declared.inputs,
        )) as Inputs;
        expect(recorded).not.toHaveProperty(IMPORTED_WITHOUT_READ);
        expect((await served.diff(callContext(), id, recorded, declared.inputs)).changes).toBe(
          false,
        );
      },
    );

    test("ignoreChanges on a required input closes the adoption as declaring it would", async () => {
      const { name: _ignored, ...withoutName } = carrierInputs();
      const read = await carrier.read(callContext(), "c-ignored", {});
      const declared = await carrier.check(callContext(), read.inputs!, withoutName);
      const recorded = (await carrier.update(
        callContext(),
        "c-ignored",
        read.state,
        declared.inputs,
        false,
        {
          ignoreChanges: ["name"],
        },
      )) as Inputs;
      expect(recorded).not.toHaveProperty(IMPORTED_WITHOUT_READ);
      const open = (await carrier.update(
        callContext(),
        "c-ignored",
        read.state,
        declared.inputs,
      )) as Inputs;
      expect(open[IMPORTED_WITHOUT_READ]).toBe(true);
    });
  });

  test("the first releases' marker is read the same", async () => {
    const diff = await carrier.diff(
      callContext(),
      "c1",
      { importedWithoutRead: true },
      await checked(),
    );
    expect(diff.detailedDiff.name).toEqual({ kind: "add", replace: false });
  });

  test("an id that cannot be the object's is refused, in recover's words", async () => {
    await expect(carrier.read(callContext(), "..", {})).rejects.toThrow(InputError);
    await expect(carrier.read(callContext(), "%2e%2e", {})).rejects.toThrow(
      /the id must not be "\.\."/,
    );
    const served = servedResource(campaignWebhook);
    await expect(served.read(callContext(), "not-a-webhook-id", {})).rejects.toThrow(
      /"not-a-webhook-id" is not a campaign webhook id/,
    );
    const inputs = (await served.check(callContext(), {}, webhookInputs())).inputs;
    await expect(
      served.diff(
        callContext(),
        otherCampaignsWebhookId,
        { [IMPORTED_WITHOUT_READ]: true },
        inputs,
      ),
    ).rejects.toThrow(
      /cannot be imported with these inputs: the id names campaign 0123456789abcdef01234567, but this subscription's campaignId is 65a1f0c2e4b0a1b2c3d4e5f6/,
    );
  });
});

test("a refresh reads back what state holds, and says so", async () => {
  const state = { name: "trunk", carrierId: "c1" };
  expect(await carrier.read(callContext(), "c1", state)).toEqual({ state });
  expect(said).toEqual([
    'refresh kept SipCarrier "c1" as the stack holds it: the platform has no read operation, so a change made on the platform is not detected',
  ]);
});

describe("delete", () => {
  test("of a resource whose diff asked for a replacement says the platform holds both", async () => {
    const olds = { ...(await checked()), carrierId: "c1" };
    await carrier.diff(
      callContext(),
      "c1",
      olds,
      await checked(carrierInputs({ name: "renamed" })),
    );
    await carrier.delete(callContext(), "c1", olds);
    expect(said.join("\n")).toMatch(/is replaced: .* the platform holds both/);
  });

  test("of a resource created anew in this process (replaceOnChanges) says the same", async () => {
    const served = servedResource(campaignWebhook);
    const olds = { ...webhookInputs(), status: "success", data: true };
    const urn = "urn:pulumi:dev::p::voiceplatform:index:CampaignWebhook::hook";
    // The engine's replaceOnChanges is not the provider's: only the new create tells.
    const config = { get: (key: string) => (key === "voiceplatform:apiKey" ? "k" : undefined) };
    rememberEngineConfig(processSettings(), config);
    await served.delete(callContext(urn), webhookId, olds).then(() => undefined);
    expect(said.join("\n")).toMatch(
      /stays subscribed to campaign .*only removed from the stack.*The ledger keeps its id: `npx pulumi-voice-platform leftovers` lists it/,
    );
    said.length = 0;
    await resetProcessState();
    const { rememberCreated } = await import("../../provider/core/replacements");
    const { processProviderStates } = await import("../../provider/settings/process-state");
    rememberCreated(processProviderStates(), urn);
    await served.delete(callContext(urn), webhookId, olds);
    expect(said.join("\n")).toMatch(
      /is replaced, and stays subscribed to campaign 65a1f0c2e4b0a1b2c3d4e5f6: .*holds 2 subscriptions.*The ledger keeps its id/,
    );
  });
});

test("every call remembers the secrets of its inputs, so whatever leaves is redacted", async () => {
  await carrier.diff(
    callContext(),
    "c1",
    {},
    carrierInputs({ registerPassword: "a-password-to-hide" }),
  );
  expect(redactSecrets("the platform said: a-password-to-hide is wrong")).toBe(
    "the platform said: [redacted] is wrong",
  );
});

test("a secret not known yet (a preview's unknown) is not remembered: the marker is no secret", async () => {
  const preview = await carrier.create(
    callContext(),
    carrierInputs({ registerPassword: UNKNOWN }),
    true,
  );
  expect(preview.state).toMatchObject({ registerPassword: UNKNOWN });
  expect(redactSecrets(`planned: ${UNKNOWN}`)).toBe(`planned: ${UNKNOWN}`);
});

describe("a replacement the engine chose after a diff in place (replaceOnChanges on the plugin)", () => {
  const urn = "urn:pulumi:dev::proj::voiceplatform:index:SipCarrier::trunk";

  function recordingLedger() {
    const events: LedgerEvent[] = [];
    return {
      events,
      ledger: { record: async (_context: unknown, event: LedgerEvent) => void events.push(event) },
    };
  }

  test("its preview create names the old object, which will stay; a create of a new resource names none", async () => {
    const news = await checked();
    await carrier.diff(callContext(urn), "c-old", news, news);
    expect(said.join("\n")).not.toContain("will be replaced");
    await carrier.create(callContext(urn), news, true);
    expect(said.filter((line) => line.includes("will be replaced"))).toEqual([
      expect.stringContaining(`"trunk" (c-old) will be replaced, and the platform cannot delete`),
    ]);
    said.length = 0;
    await carrier.create(callContext(urn.replace("::trunk", "::other")), news, true);
    expect(said.join("\n")).not.toContain("will be replaced");
  });

  test("its delete before the new object's create is recorded as deleteBeforeReplace, not a removal", async () => {
    const { events, ledger } = recordingLedger();
    const served = servedResource(sipCarrier, ledger);
    const news = await checked();
    await served.check(callContext(urn), {}, news);
    await served.diff(callContext(urn), "c-old", news, news);
    await served.delete(callContext(urn), "c-old", news);
    expect(events).toEqual([
      expect.objectContaining({ event: "left", id: "c-old", how: "deleteBeforeReplace" }),
    ]);
  });
});
