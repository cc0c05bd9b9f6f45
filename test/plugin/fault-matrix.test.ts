/**
 * The fault matrix (test/reliability/fault-matrix.ts) through the provider plugin's process,
 * driven over gRPC as the engine drives it: the same cells, the same outcomes as through the
 * dynamic runtime (test/reliability/fault-matrix.test.ts).
 */
import { describeFaultMatrix, pluginProcess } from "../reliability/fault-matrix-cells";

describe("through the provider plugin", () => describeFaultMatrix(pluginProcess));
