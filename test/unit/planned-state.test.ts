import { UNKNOWN } from "../../provider/core/engine-values";
import { plannedCreateState, plannedUpdateState } from "../../provider/core/planned-state";
import { campaignWebhook } from "../../provider/resources/campaign-webhook";
import { sipCarrier } from "../../provider/resources/sip-carrier";
import { voice } from "../../provider/resources/voice";

describe("the state a preview plans", () => {
  it("a create keeps the inputs, drops undefined, and leaves what the platform assigns unknown", () => {
    expect(plannedCreateState(sipCarrier, { name: "Trunk", registerUsername: undefined })).toEqual({
      name: "Trunk",
      carrierId: UNKNOWN,
    });
    expect(plannedCreateState(campaignWebhook, { campaignId: UNKNOWN, url: "https://h" })).toEqual({
      campaignId: UNKNOWN,
      url: "https://h",
      status: UNKNOWN,
      data: UNKNOWN,
    });
  });

  it("an update keeps the outputs it does not rewrite and takes the new inputs", () => {
    const stored = {
      name: "Old",
      stability: 0.4,
      voiceId: "v-1",
      samples: [{ name: "a.wav", sha256: "ab", size: 3 }],
      settings: { stability: 0.4, style: 0 },
      ttsClient: "ELEVENLABS",
      stateVersion: 1,
    };
    expect(plannedUpdateState(voice, stored, { name: "New" })).toEqual({
      name: "New",
      voiceId: "v-1",
      samples: stored.samples,
      stateVersion: 1,
      organizationId: UNKNOWN,
      settings: UNKNOWN,
      ttsClient: UNKNOWN,
    });
  });
});
