/** The pacing's waits give way to a stopped provider: a stopped wait ends at once, and in turn. */
import { Pacer } from "../../provider/platform/rate-pacer";

describe("Pacer", () => {
  it("admits at once while nothing holds it", () => {
    expect(new Pacer().admit(Date.now(), new AbortController().signal)).toBeUndefined();
  });

  it("ends a wait for a Retry-After at once when stopped, and keeps the others waiting", async () => {
    const pacer = new Pacer();
    const holdEnds = Date.now() + 2_000;
    pacer.holdUntil(holdEnds);
    const stop = new AbortController();
    const stopped = pacer.admit(Date.now(), stop.signal);
    let otherAdmittedAt: number | undefined;
    const other = pacer.admit(Date.now())!.then(() => (otherAdmittedAt = Date.now()));
    stop.abort();
    await expect(stopped).resolves.toBe(false);
    expect(otherAdmittedAt).toBeUndefined();
    await other;
    expect(otherAdmittedAt).toBeGreaterThanOrEqual(holdEnds);
  });

  it("admits the next waiter in the place of one that was stopped", async () => {
    const pacer = new Pacer();
    pacer.holdUntil(Date.now() + 150);
    const stop = new AbortController();
    const stopped = pacer.admit(Date.now(), stop.signal);
    const next = pacer.admit(Date.now(), new AbortController().signal);
    stop.abort();
    await expect(stopped).resolves.toBe(false);
    await expect(next).resolves.toBe(true);
  });

  it("does not queue a signal already stopped", async () => {
    const pacer = new Pacer();
    pacer.holdUntil(Date.now() + 60_000);
    const stop = new AbortController();
    stop.abort();
    await expect(pacer.admit(Date.now(), stop.signal)).resolves.toBe(false);
  });
});
