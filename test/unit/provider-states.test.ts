/**
 * A provider's states (settings/process-state): each concern's slot answers the state of the
 * provider whose call is running, so the plugin's shared server keeps the providers it serves
 * apart, and dropping one provider's states lets go of what they held.
 */
import {
  dropStates,
  processProviderStates,
  providerSettings,
  resetProcessState,
  stateSlot,
  withProviderStates,
  type ProviderStates,
} from "../../provider/settings/process-state";

afterEach(() => resetProcessState());

test("a slot answers one state per provider, made on first use", async () => {
  const counter = stateSlot(() => ({ calls: 0 }));
  const first: ProviderStates = new Map();
  const second: ProviderStates = new Map();
  withProviderStates(first, () => (counter().calls += 2));
  // What a provider's call starts keeps that provider's states after it awaits.
  await withProviderStates(second, async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    counter().calls += 5;
  });
  counter().calls += 7;
  expect([
    withProviderStates(first, () => counter().calls),
    withProviderStates(second, () => counter().calls),
    counter().calls,
  ]).toEqual([2, 5, 7]);
});

test("the settings Configure gave one provider are not another's", () => {
  const one: ProviderStates = new Map();
  const other: ProviderStates = new Map();
  providerSettings(one).givenSettings = { apiKey: "key-of-one" };
  expect(providerSettings(other).givenSettings).toEqual({});
  expect(providerSettings(processProviderStates()).givenSettings).toEqual({});
  expect(providerSettings(one).givenSettings).toEqual({ apiKey: "key-of-one" });
});

test("dropping a provider's states closes what they hold and starts it afresh", async () => {
  const closed: string[] = [];
  const pool = stateSlot(
    () => ({ name: `pool-${closed.length}` }),
    (state) => {
      closed.push(state.name);
    },
  );
  const states: ProviderStates = new Map();
  expect(withProviderStates(states, () => pool().name)).toBe("pool-0");
  expect(pool().name).toBe("pool-0");
  await dropStates(states);
  expect(closed).toEqual(["pool-0"]);
  expect(withProviderStates(states, () => pool().name)).toBe("pool-1");
  await resetProcessState();
  expect(closed).toEqual(["pool-0", "pool-0"]);
});
