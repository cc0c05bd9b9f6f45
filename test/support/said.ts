/**
 * What the provider says (warnings and notices go to console.warn and console.log in its process),
 * recorded for one test and restored after it: call `recordSaid()` in a `beforeEach`.
 */
export function recordSaid(): string[] {
  const said: string[] = [];
  const record = (...args: unknown[]) => said.push(args.join(" "));
  jest.spyOn(console, "warn").mockImplementation(record);
  jest.spyOn(console, "log").mockImplementation(record);
  return said;
}
