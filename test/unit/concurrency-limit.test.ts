import { ConcurrencyLimit } from "../../provider/platform/concurrency-limit";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("ConcurrencyLimit", () => {
  it("never runs more tasks at once than its limit, and runs them all", async () => {
    const limit = new ConcurrencyLimit(3);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        limit.run(async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 1));
          running--;
          return index;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(results).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(limit.inFlight).toBe(0);
  });

  it("frees the slot when a task fails", async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(limit.run(async () => "next")).resolves.toBe("next");
  });

  it("lets waiting tasks in when the limit grows", async () => {
    const limit = new ConcurrencyLimit(1);
    const gate = deferred();
    const first = limit.run(() => gate.promise);
    let secondStarted = false;
    const second = limit.run(async () => {
      secondStarted = true;
    });
    await Promise.resolve();
    expect(secondStarted).toBe(false);
    limit.setLimit(2);
    await second;
    expect(secondStarted).toBe(true);
    gate.resolve();
    await first;
    expect(limit.inFlight).toBe(0);
  });
});
