/**
 * The fault matrix (fault-matrix.ts) through the dynamic runtime's handlers, in this process,
 * against the emulator answering as the spec shows; fault-matrix-extended.test.ts runs it with the
 * extended answers (a file each, so that two jest workers share the matrix); the plugin's arm is
 * test/plugin/fault-matrix.test.ts.
 *
 * Set UPDATE_FAULT_MATRIX=1 to rewrite the table in fault-matrix.md from fault-matrix.ts.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { voiceInputs, writeSample } from "../support/builders";
import {
  coveringCells,
  faultKeys,
  matrix,
  MATRIX_BEGIN,
  MATRIX_END,
  names,
  operationKeys,
  renderMatrix,
} from "./fault-matrix";
import { checked, describeFaultMatrix, inProcess, useEmulator } from "./fault-matrix-cells";
import * as runtime from "../../provider/runtime";

describe("through the dynamic runtime, answers shaped as spec", () =>
  describeFaultMatrix(inProcess, "spec"));

test("a sample removed between check and create fails before anything is sent, saying so", async () => {
  const emulator: RunningEmulator = await startEmulator();
  useEmulator(emulator);
  const frontEnd = inProcess();
  await frontEnd.configure({});
  const file = writeSample("gone.wav");
  const inputs = await checked(
    frontEnd,
    "Voice",
    voiceInputs({ name: names.voice, files: [file] }),
  );
  rmSync(file);
  await expect(runtime.Voice.create(inputs)).rejects.toThrow(
    /^clone voice "Matrix voice": a sample cannot be read \(ENOENT: .*gone\.wav\), so nothing was sent\. Fix the file and run `pulumi up` again$/,
  );
  expect(await emulator.requests()).toEqual([]);
  await emulator.stop();
});

test("the plugin's covering set holds every fault, and every outcome of every operation, once or more", () => {
  const outcome = (op: (typeof operationKeys)[number], fault: (typeof faultKeys)[number]) =>
    `${op}: ${matrix[op][fault]!.outcome}, recorded as ${matrix[op][fault]!.recorded}`;
  const every = operationKeys.flatMap((op) =>
    faultKeys.filter((fault) => matrix[op][fault] !== undefined).map((fault) => outcome(op, fault)),
  );
  const covering = coveringCells();
  expect(new Set(covering.map(([op, fault]) => outcome(op, fault)))).toEqual(new Set(every));
  expect(new Set(covering.map(([, fault]) => fault))).toEqual(new Set(faultKeys));
  expect(covering.length).toBeLessThan(every.length);
});

test("fault-matrix.md shows the matrix this suite runs", () => {
  const path = join(__dirname, "fault-matrix.md");
  const text = readFileSync(path, "utf8");
  const begin = text.indexOf(MATRIX_BEGIN);
  const end = text.indexOf(MATRIX_END);
  expect(begin).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(begin);
  const rendered = `${MATRIX_BEGIN}\n\n${renderMatrix()}\n\n${MATRIX_END}`;
  // As the repository keeps it: formatted by prettier (run apart: it imports modules dynamically).
  const expected = execFileSync(
    process.execPath,
    [require.resolve("prettier/bin/prettier.cjs"), "--stdin-filepath", path],
    {
      input: text.slice(0, begin) + rendered + text.slice(end + MATRIX_END.length),
      encoding: "utf8",
    },
  );
  // UPDATE_FAULT_MATRIX=1 rewrites the table first; the file is then checked like any other run.
  if (text !== expected && process.env.UPDATE_FAULT_MATRIX === "1") writeFileSync(path, expected);
  expect(readFileSync(path, "utf8")).toBe(expected);
});
