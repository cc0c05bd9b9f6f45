/**
 * examples/go through the plugin, under Pulumi's Go language host: the shared scenario
 * (scenario.ts). The host builds the copied program with the Go toolchain against the generated
 * module in this checkout (`go mod edit -replace`, as the example's README says) and sdk/v3 from
 * the module proxy.
 */
import { describeScenario } from "./scenario";

describeScenario({ language: "Go", example: "go" });
