/**
 * The fault matrix (test/reliability/fault-matrix.ts) through the provider plugin's process,
 * driven over gRPC as the engine drives it: its covering set (every fault once, every outcome of
 * every operation once), with the same outcomes as through the dynamic runtime, which runs every
 * cell (test/reliability/fault-matrix.test.ts). Both front ends serve the same served-resource
 * layer; what the plugin has of its own is how each outcome crosses gRPC. The spec's answers
 * here, the extended ones in fault-matrix-extended.test.ts.
 */
import { describeFaultMatrix, pluginProcess } from "../reliability/fault-matrix-cells";

describe("through the provider plugin, answers shaped as spec", () =>
  describeFaultMatrix(pluginProcess, "spec", "covering set"));
