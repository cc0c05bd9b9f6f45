/**
 * `describe` when the tool a suite needs is there. Otherwise the suite is skipped with one
 * message, except under CI, where a missing tool means a broken install step: there one failing
 * test says what is missing.
 */
export function describeWhen(available: boolean, missing: string): jest.Describe {
  if (available) return describe;
  if (process.env.CI) {
    test(`needs: ${missing}`, () => {
      throw new Error(missing);
    });
  } else {
    console.warn(`Skipping: ${missing}`);
  }
  return describe.skip;
}
