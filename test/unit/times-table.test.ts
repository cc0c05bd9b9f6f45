/** The per-file times table of docs/development.md, from a run's times file. */
const { fileLines, timesTable } = require("../support/times-table.js") as {
  fileLines: (text: string) => { file: string; tier: string; seconds: number }[];
  timesTable: (lines: { file: string; tier: string; seconds: number }[]) => string[];
};

test("each file gets a row per tier or lane it ran in, tiers in npm test's order, slowest first, and each tier its sum", () => {
  const times = [
    { file: "test/e2e/a.test.ts", tier: "engine", seconds: 10 },
    { file: "test/unit/b.test.ts", tier: "unit", seconds: 1 },
    { file: "test/e2e/c.test.ts", tier: "engine", seconds: 30.25 },
    { run: "engine", seconds: 35 },
    { file: "test/e2e/a.test.ts", tier: "engine", lane: "node22", seconds: 12 },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");
  expect(timesTable(fileLines(times))).toEqual([
    "| file | tier | seconds |",
    "| --- | --- | ---: |",
    "| `test/unit/b.test.ts` | unit | 1.0 |",
    "| `test/e2e/c.test.ts` | engine | 30.3 |",
    "| `test/e2e/a.test.ts` | engine | 10.0 |",
    "| `test/e2e/a.test.ts` | node22 | 12.0 |",
    "| all unit files (their sum; the tier runs them on two workers) | unit | 1.0 |",
    "| all engine files (their sum; the tier runs them on two workers) | engine | 40.3 |",
    "| all node22 files (their sum; the tier runs them on two workers) | node22 | 12.0 |",
  ]);
});

test("an empty times file gives the header alone", () => {
  expect(timesTable(fileLines("\n"))).toEqual([
    "| file | tier | seconds |",
    "| --- | --- | ---: |",
  ]);
});
