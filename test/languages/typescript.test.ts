/**
 * examples/plugin-typescript through the plugin, under Pulumi's Node.js language host: the
 * shared scenario (scenario.ts). The program runs in a project where the packed package (which
 * carries the plugin) and the generated Node.js SDK's tarball are installed with npm.
 */
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { REPO_ROOT } from "../pulumi-cli/locate";
import { describeScenario } from "./scenario";
import { nodeSdk, runTool } from "./toolchains";

describeScenario({
  language: "TypeScript",
  example: "plugin-typescript",
  async prepare(_dir, fixture) {
    const sdk = await nodeSdk();
    await runTool(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", sdk.tarball],
      { cwd: fixture },
    );
    for (const file of ["index.ts", "Pulumi.yaml"]) {
      await cp(join(REPO_ROOT, "examples/plugin-typescript", file), join(fixture, file));
    }
    return { dir: fixture };
  },
});
