/**
 * The fault matrix (test/reliability/fault-matrix.ts) through the provider plugin's process,
 * driven over gRPC as the engine drives it: the same cells, the same outcomes as through the
 * dynamic runtime (test/reliability/fault-matrix.test.ts). The spec's answers here, the extended
 * ones in fault-matrix-extended.test.ts (a file each, so that two jest workers share the matrix).
 */
import { describeFaultMatrix, pluginProcess } from "../reliability/fault-matrix-cells";

describe("through the provider plugin, answers shaped as spec", () =>
  describeFaultMatrix(pluginProcess, "spec"));
