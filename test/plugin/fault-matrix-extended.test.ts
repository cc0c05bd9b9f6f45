/**
 * The fault matrix's covering set through the provider plugin's process with the emulator's
 * extended answers (more fields than the spec shows); fault-matrix.test.ts runs the spec's answers.
 */
import { describeFaultMatrix, pluginProcess } from "../reliability/fault-matrix-cells";

describe("through the provider plugin, answers shaped as extended", () =>
  describeFaultMatrix(pluginProcess, "extended", "covering set"));
