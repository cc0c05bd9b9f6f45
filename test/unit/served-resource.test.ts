/**
 * The one layer both front ends serve a descriptor through, on the real descriptors and with no
 * platform configured: anything that tried a request would fail for want of an API key, so a
 * passing preview or adoption also shows that nothing was sent.
 */
import { UNKNOWN } from "../../provider/core/engine-values";
import { IMPORTED_WITHOUT_READ, servedResource } from "../../provider/core/served-resource";
import { UnsafePathError } from "../../provider/platform/errors";
import { redactSecrets } from "../../provider/platform/redaction";
import { sipCarrier } from "../../provider/resources/sip-carrier";
import { voice } from "../../provider/resources/voice";
import { rememberEngineConfig } from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";
import { carrierInputs } from "../support/builders";

const carrier = servedResource(sipCarrier);

beforeEach(() => rememberEngineConfig({ get: () => undefined }));
afterEach(resetProcessState);

async function checked() {
  const { inputs, failures } = await carrier.check({}, carrierInputs());
  expect(failures).toEqual([]);
  return inputs;
}

test("a preview create answers the planned state, platform outputs unknown, and no id", async () => {
  const news = await checked();
  const planned = await carrier.create(news, true);
  expect(planned.id).toBeUndefined();
  expect(planned.state).toEqual({ ...news, carrierId: UNKNOWN });
});

test("a preview update keeps what the update does not rewrite and marks what it does", async () => {
  const served = servedResource(voice);
  const olds = { name: "Old", voiceId: "vx", organizationId: "o1", samples: [], stateVersion: 1 };
  const planned = (await served.update("v1", olds, { name: "New" }, true)) as Record<
    string,
    unknown
  >;
  expect(planned).toMatchObject({ name: "New", voiceId: "vx", organizationId: UNKNOWN });
});

test("an import reads an id into the adoption marker; the next diff and update adopt it", async () => {
  const marker = carrier.read("c-imported", {});
  expect(marker).toEqual({ [IMPORTED_WITHOUT_READ]: true });
  const news = await checked();
  expect(await carrier.diff("c-imported", marker, news)).toEqual({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(await carrier.update("c-imported", marker, news, true)).toEqual({
    ...news,
    carrierId: UNKNOWN,
  });
  expect(await carrier.update("c-imported", marker, news)).toEqual({
    ...news,
    stateVersion: 1,
    carrierId: "c-imported",
  });
});

test("a refresh reads back what state holds", () => {
  const state = { name: "trunk", carrierId: "c1", stateVersion: 1 };
  expect(carrier.read("c1", state)).toBe(state);
});

test("an id that would change a request's address is refused before state holds it", () => {
  expect(() => carrier.read("..", {})).toThrow(UnsafePathError);
  expect(() => carrier.read("%2e%2e", {})).toThrow(/must not be "\.\."/);
});

test("every call remembers the secrets of its inputs, so whatever leaves is redacted", async () => {
  await carrier.diff("c1", {}, carrierInputs({ registerPassword: "a-password-to-hide" }));
  expect(redactSecrets("the platform said: a-password-to-hide is wrong")).toBe(
    "the platform said: [redacted] is wrong",
  );
});
