/**
 * The state `recover` builds for an interrupted create, against what the create handler returns
 * from the emulator: the same outputs, and a diff against the declared inputs with no change.
 */
import { basename, dirname } from "node:path";
import { NO_CHANGES } from "../../provider/core/diff";
import { campaignWebhook } from "../../provider/resources/campaign-webhook";
import { idProblem, outputsAfterCreate } from "../../provider/cli/state/recovered-resource";
import { sipCarrier } from "../../provider/resources/sip-carrier";
import { voice } from "../../provider/resources/voice";
import { writeSample } from "../support/builders";
import { carrierInputs, PROVIDER_TEXT, webhookInputs } from "../support/state-builders";
import { useEmulator } from "./emulator-harness";
import { callContext } from "../support/call-context";

const PASSWORD = "sip-password-Q4m9x";
const TOKEN = "Bearer crm-token-Zr82kT";

const carrier = () => ({ ...carrierInputs("trunk"), registerPassword: PASSWORD });

const advancedWebhook = () => ({
  ...webhookInputs(),
  isAdvanced: true,
  advancedWebhook: {
    url: "https://crm.example.com/api/calls",
    method: "GET",
    headers: [{ name: "Authorization", value: TOKEN }],
  },
});

/** A property bag as the resource descriptors get it: the dynamic front end strips `__provider`. */
const plain = ({ __provider: _provider, ...rest }: Record<string, unknown>) => rest;

/** Drops undefined members, as the engine's serialization does. */
const stored = (value: object) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe("the state recover builds, against what a create against the platform returns", () => {
  const { emulator } = useEmulator();
  void emulator;

  it("a carrier: the very outputs a create records, and the next diff sees no change", async () => {
    const created = await sipCarrier.create(callContext(), plain(carrier()));
    const recovered = await outputsAfterCreate("SipCarrier", carrier(), created.id, process.cwd());
    expect(recovered).toEqual({ ...stored(created.state), __provider: PROVIDER_TEXT });
    expect(
      await sipCarrier.diff(callContext(), created.id, plain(recovered), plain(carrier())),
    ).toEqual(NO_CHANGES);
  });

  it("a webhook: the create's outputs without the subscribe's answer, which recover cannot know", async () => {
    const created = await campaignWebhook.create(callContext(), plain(advancedWebhook()));
    const recovered = await outputsAfterCreate(
      "CampaignWebhook",
      advancedWebhook(),
      created.id,
      "/",
    );
    const { status, data, ...rest } = stored(created.state);
    expect([status, data]).toEqual(["success", true]);
    expect(recovered).toEqual({ ...rest, __provider: PROVIDER_TEXT });
    expect(
      (
        await campaignWebhook.diff(
          callContext(),
          created.id,
          plain(recovered),
          plain(advancedWebhook()),
        )
      ).changes,
    ).toBe(false);
    expect(idProblem("CampaignWebhook", created.id, advancedWebhook())).toBeUndefined();
  });

  it("a voice: samples hashed from the project's files, no platform fields until the next update", async () => {
    const sample = writeSample("greeting.wav", "RIFF-recover-sample");
    // The pending create holds the path as the program gave it, relative to the project.
    const inputs = {
      __provider: PROVIDER_TEXT,
      name: "Support agent",
      files: [basename(sample)],
      stability: 0.5,
    };
    const created = await voice.create(callContext(), plain({ ...inputs, files: [sample] }));
    const recovered = await outputsAfterCreate("Voice", inputs, created.id, dirname(sample));
    expect(recovered.samples).toEqual(created.state.samples);
    expect(recovered.voiceId).toBeUndefined();
    expect(created.state.voiceId).toEqual(expect.any(String));
    // The provider runs in the project directory; here the path is given whole instead.
    const news = plain({ ...inputs, files: [sample] });
    expect((await voice.diff(callContext(), created.id, plain(recovered), news)).changes).toBe(
      false,
    );

    // Whether the clone's follow-up PUT happened is unknown: the next up sends it, in place.
    const multilingual = { ...inputs, isMultilingual: true };
    const unsure = await outputsAfterCreate("Voice", multilingual, created.id, dirname(sample));
    expect(
      await voice.diff(
        callContext(),
        created.id,
        plain(unsure),
        plain({ ...multilingual, files: [sample] }),
      ),
    ).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("a voice whose sample is gone cannot be recovered: the state would not match", async () => {
    await expect(
      outputsAfterCreate("Voice", { name: "Gone", files: ["missing.wav"] }, "v1", "/nonexistent"),
    ).rejects.toThrow(/ENOENT/);
  });
});
