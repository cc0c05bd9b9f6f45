/**
 * Each resource kind's test facts are in its fixture, test/fixtures/kinds/<kind>.ts, found by the
 * kind's name: a kind of provider/resources without one fails the tests that walk every kind with
 * the kind's name and the file to add, not with an error about undefined.
 */
import { resources } from "../../provider/resources";
import { fixtureFile, fixtureOf } from "../support/kind-fixtures";

test("a kind without a fixture fails naming the kind and the file to add", () => {
  expect(() => fixtureOf("NoSuchKind")).toThrow("NoSuchKind has no test fixture");
  expect(() => fixtureOf("NoSuchKind")).toThrow(
    "add test/fixtures/kinds/no-such-kind.ts exporting `fixture`",
  );
});

test.each(resources.map((descriptor) => descriptor.type))(
  "%s has its fixture, of its kind",
  (kind) => {
    expect(fixtureFile(kind)).toMatch(/^test\/fixtures\/kinds\/[a-z-]+\.ts$/);
    expect(fixtureOf(kind).kind).toBe(kind);
  },
);
