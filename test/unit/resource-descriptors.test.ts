/**
 * The resource descriptors are what every front end adapts: they take plain inputs (no
 * `__provider`), name their secret inputs, and build the state a create stores from the id alone,
 * which a diff against the same inputs finds unchanged. Every descriptor of the list is walked.
 */
import { NO_CHANGES } from "../../provider/core/diff";
import type { Inputs } from "../../provider/core/resource-descriptor";
import { secretValues } from "../../provider/core/secret-paths";
import { resources } from "../../provider/resources";
import { campaignWebhook } from "../../provider/resources/campaign-webhook";
import { sipCarrier } from "../../provider/resources/sip-carrier";
import { voice } from "../../provider/resources/voice";
import * as runtime from "../../provider/runtime";
import { resetProcessState } from "../../provider/settings/process-state";
import { advancedWebhook, carrierInputs, webhookInputs } from "../support/builders";
import { fixtureFile, fixtureOf } from "../support/kind-fixtures";
import { callContext } from "../support/call-context";

afterEach(resetProcessState);

describe.each(resources.map((descriptor) => [descriptor.type, descriptor] as const))(
  "%s",
  (type, definition) => {
    const fixture = fixtureOf(type);

    test(`has valid inputs and an id in ${fixtureFile(type)}`, () => {
      expect({ inputs: fixture.inputs, id: fixture.id }).toEqual({
        inputs: expect.any(Function),
        id: expect.any(String),
      });
    });

    test("knows nothing of __provider: the dynamic runtime takes it off", async () => {
      const news = { ...fixture.inputs(), __provider: "serialized stub text" };
      expect((await definition.check(callContext(), {}, news)).failures).toEqual([
        expect.objectContaining({ property: "__provider" }),
      ]);
      const checked = await runtime[type].check({}, news);
      expect(checked.failures).toEqual([]);
      expect(checked.inputs).not.toHaveProperty("__provider");
    });

    test("the state after create, from the id alone, diffs as unchanged", async () => {
      const { inputs: checked, failures } = await definition.check(
        callContext(),
        {},
        fixture.inputs(),
      );
      expect(failures).toEqual([]);
      const state = await definition.stateAfterCreate(fixture.id, checked);
      expect(state).not.toHaveProperty("stateVersion");
      expect(await definition.diff(callContext(), fixture.id, state as Inputs, checked)).toEqual(
        NO_CHANGES,
      );
    });

    test("its type and schema describe it", () => {
      expect(definition.type).toBe(type);
      expect(Object.keys(definition.inputSchema.shape)).toContain("subOrganizationId");
    });

    test("a state of the first releases (stateVersion: 1) diffs as unchanged", async () => {
      const { inputs: checked } = await definition.check(callContext(), {}, fixture.inputs());
      const state = await definition.stateAfterCreate(fixture.id, checked);
      const firstRelease = { ...(state as Inputs), stateVersion: 1 };
      expect(await definition.diff(callContext(), fixture.id, firstRelease, checked)).toEqual(
        NO_CHANGES,
      );
    });
  },
);

test("secret inputs are named by path, items of lists included", () => {
  expect(sipCarrier.secretInputs).toEqual(["registerPassword"]);
  expect(voice.secretInputs).toEqual([]);
  const webhook = webhookInputs({
    isAdvanced: true,
    advancedWebhook: advancedWebhook({ body: "body-token" }),
  });
  // Everything in an advanced webhook that can carry a token.
  expect(secretValues(webhook, campaignWebhook.secretInputs)).toEqual([
    "https://crm.example.com/hook",
    "webhook-header-secret-value",
    "voice",
    "body-token",
  ]);
  expect(secretValues(carrierInputs(), sipCarrier.secretInputs)).toEqual(["s3cret-sip-password"]);
});
