/**
 * examples/python through the plugin, under Pulumi's Python language host: the shared scenario
 * (scenario.ts). The copy's ./venv holds `pulumi` from PyPI and the generated SDK installed with
 * pip, as the example's README has users install them (toolchains.ts caches it).
 */
import { describeScenario } from "./scenario";

describeScenario({ language: "Python", example: "python", policyPackRemoval: true });
