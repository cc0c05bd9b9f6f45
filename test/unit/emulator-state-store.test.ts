/**
 * The emulator's state holds each kind's objects in the collection its route file names
 * (provider/emulator/routes/<kind>.ts), so a new kind's objects need nothing else: they are
 * stored, shown by the control surface's state, written to the state file and read back.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { kindRoutes, type KindRoutes } from "../../provider/emulator/routes";
import { StateStore } from "../../provider/emulator/state-store";

const testObjects: KindRoutes = { collection: "testObjects", routes: [], secretFields: ["pin"] };
const kinds = [...kindRoutes, testObjects];

test("the emulator serves the spec's four operations, from one route file per kind of the spec", () => {
  const served = kindRoutes.map((kind) => ({
    collection: kind.collection,
    routes: kind.routes.map((route) => `${route.origin} ${route.method} ${route.path}`),
  }));
  // A kind added since (docs/development.md, "Add a resource") brings a route file of its own.
  expect(served).toEqual(
    expect.arrayContaining([
      {
        collection: "subscriptions",
        routes: ["campaigns POST /campaigns/:campaignId/webhook/subscribe"],
      },
      { collection: "carriers", routes: ["api POST /organization/sip"] },
      { collection: "voices", routes: ["api POST /voices/voice-clone", "api PUT /voices/:id"] },
    ]),
  );
});

test("a kind's objects are stored, shown and kept in the state file by its collection", () => {
  const stateFile = join(mkdtempSync(join(tmpdir(), "emulator-state-")), "state.json");
  const store = new StateStore(["org-a"], stateFile, kinds);
  const empty = store.snapshot().organizations["org-a"]!;
  expect(Object.keys(empty).sort()).toEqual(kinds.map((kind) => kind.collection).sort());
  expect(empty).toMatchObject({ voices: [], carriers: [], subscriptions: {}, testObjects: [] });
  const number = { id: "n1", organizationId: "org-a", number: "+14155550100", pin: "4711" };
  store.save("testObjects", number);
  for (const id of ["s1", "s2"]) {
    const subscription = { id, organizationId: "org-a", campaignId: "c1" };
    store.save("subscriptions", subscription);
  }
  expect(store.find("testObjects", "org-a", "n1")).toEqual(number);
  expect(store.find("testObjects", "org-b", "n1")).toBeUndefined();
  const shown = store.snapshot().organizations["org-a"]!;
  // Its secret fields, which its route file names, are redacted there as the spec's kinds' are.
  expect(shown.testObjects).toEqual([{ ...number, pin: "[redacted]" }]);
  expect(JSON.stringify(store.snapshot())).not.toContain("4711");
  expect(Object.keys(shown.subscriptions)).toEqual(["c1"]);
  expect(shown.subscriptions.c1!.map((subscription) => subscription.id)).toEqual(["s1", "s2"]);

  const written = JSON.parse(readFileSync(stateFile, "utf8")) as { version: number };
  expect(written.version).toBe(1);
  const reread = new StateStore(["org-a"], stateFile, kinds);
  expect(reread.snapshot()).toEqual(store.snapshot());
  expect(readFileSync(stateFile, "utf8")).not.toContain("4711");
  // A file written before a kind existed holds none of its objects.
  expect(
    new StateStore(["org-a"], stateFile, kindRoutes).snapshot().organizations["org-a"],
  ).not.toHaveProperty("testObjects");
});
