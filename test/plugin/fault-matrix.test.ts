/**
 * The fault matrix (test/reliability/fault-matrix.ts) through the provider plugin's process,
 * driven over gRPC as the engine drives it: the same cells, the same outcomes as through the
 * dynamic runtime (test/reliability/fault-matrix.test.ts).
 */
import { describeFaultMatrix, pluginProcess } from "../reliability/fault-matrix-cells";

describe.each(["spec", "extended"] as const)(
  "through the provider plugin, answers shaped as %s",
  (answers) => describeFaultMatrix(pluginProcess, answers),
);
