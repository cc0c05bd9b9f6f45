import { stateOfCreated } from "../../provider/core/created-object";
import { IncompleteCreateError } from "../../provider/core/errors";
import { withoutUndefined } from "../../provider/core/serializable";

describe("after the platform answered a create", () => {
  it("a failure while building the state still hands back the id and what is known", async () => {
    const failure = await stateOfCreated("obj-1", { name: "Made", speed: undefined }, () => {
      throw new TypeError("the answer's settings are not an object");
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IncompleteCreateError);
    expect(failure).toMatchObject({ id: "obj-1", properties: { name: "Made" } });
    expect((failure as IncompleteCreateError).properties).not.toHaveProperty("speed");
    expect((failure as Error).message).toContain("the answer's settings are not an object");
  });

  it("the state built is returned as it is", async () => {
    await expect(stateOfCreated("obj-2", {}, () => ({ done: true }))).resolves.toEqual({
      done: true,
    });
  });
});

test("values the engine cannot carry are dropped at any depth, arrays keep their order", () => {
  expect(
    withoutUndefined({ a: undefined, b: [1, undefined, { c: undefined, d: null }], e: "x" }),
  ).toEqual({ b: [1, { d: null }], e: "x" });
});
