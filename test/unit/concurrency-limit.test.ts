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

  it("lets a task that waits give up its place when stopped, and never runs it", async () => {
    const limit = new ConcurrencyLimit(1);
    const gate = deferred();
    const first = limit.run(() => gate.promise);
    const stop = new AbortController();
    let stoppedRan = false;
    const stopped = limit.run(async () => {
      stoppedRan = true;
    }, stop.signal);
    const third = limit.run(async () => "third");
    stop.abort();
    await expect(stopped).resolves.toBeUndefined();
    gate.resolve();
    await first;
    // The slot went to the task behind the one that gave up.
    await expect(third).resolves.toBe("third");
    expect(stoppedRan).toBe(false);
    expect(limit.inFlight).toBe(0);
  });

  it("runs nothing for a signal already stopped when no slot is free", async () => {
    const limit = new ConcurrencyLimit(1);
    const gate = deferred();
    const first = limit.run(() => gate.promise);
    const stop = new AbortController();
    stop.abort();
    await expect(limit.run(async () => "ran", stop.signal)).resolves.toBeUndefined();
    gate.resolve();
    await first;
    expect(limit.inFlight).toBe(0);
  });
});
