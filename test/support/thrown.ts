/** What `run` throws, for a test that checks its class and fields; a run that throws nothing fails. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw, and nothing was thrown");
}
