/**
 * The tests in four tiers, cheapest first; `npm test` runs them in this order and stops at the
 * first tier that fails, so the first failure reported is the cheapest one to reproduce.
 *
 * - unit: pure functions. No build, no server, no Pulumi CLI (`npm run test:unit`).
 * - emulator: the platform emulator, and the provider's handlers against it over HTTP.
 * - process: the packed package in the provider processes Pulumi starts, driven over gRPC.
 * - engine: the real Pulumi CLI and language hosts running programs.
 *
 * A tier is a list of folder globs and nothing else (no file names, no ignore patterns), so a test
 * file's folder says which tier it runs in: the reliability tests that start provider processes
 * live in test/reliability-processes, those against the emulator alone in test/reliability.
 * test/unit/test-tiers.test.ts fails when a test file belongs to no tier, or to two, or when a
 * tier is anything but folder globs.
 */
const common = {
  roots: ["<rootDir>/test"],
  testEnvironment: "node",
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
  },
  moduleFileExtensions: ["ts", "js", "json"],
};

const tiers = {
  unit: { testMatch: ["<rootDir>/test/unit/**/*.test.ts"] },
  emulator: { testMatch: ["<rootDir>/test/{emulator,provider,reliability}/**/*.test.ts"] },
  process: {
    testMatch: [
      "<rootDir>/test/{package,dynamic-provider,plugin,reliability-processes}/**/*.test.ts",
    ],
    globalSetup: "<rootDir>/test/support/build-before-tests.ts",
  },
  engine: {
    testMatch: ["<rootDir>/test/{e2e,examples,pulumi-cli,languages,release}/**/*.test.ts"],
    globalSetup: "<rootDir>/test/support/build-before-tests.ts",
  },
};

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 30000,
  // jest's order, but files with `@slow` in their first comment start first when jest has no time
  // for them yet (a fresh clone): test/support/slow-first-sequencer.js.
  testSequencer: "<rootDir>/test/support/slow-first-sequencer.js",
  reporters: ["default", "<rootDir>/test/support/file-times-reporter.js"],
  projects: Object.entries(tiers).map(([displayName, tier]) => ({
    ...common,
    displayName,
    rootDir: __dirname,
    ...tier,
  })),
};
