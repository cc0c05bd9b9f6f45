/**
 * The fault matrix through the dynamic runtime's handlers with the emulator's extended answers
 * (more fields than the spec shows); fault-matrix.test.ts runs the spec's answers.
 */
import { describeFaultMatrix, inProcess } from "./fault-matrix-cells";

describe("through the dynamic runtime, answers shaped as extended", () =>
  describeFaultMatrix(inProcess, "extended"));
