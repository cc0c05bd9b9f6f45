/**
 * examples/python through the plugin, under Pulumi's Python language host: the shared scenario
 * (scenario.ts). The program runs in a cached virtualenv holding `pulumi` from PyPI and the
 * generated SDK installed with pip (toolchains.ts).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describeScenario } from "./scenario";
import { pythonVenv } from "./toolchains";

describeScenario({
  language: "Python",
  example: "python",
  async prepare(dir) {
    const venv = await pythonVenv();
    // The host runs the program with this virtualenv's python and installs nothing.
    const file = join(dir, "Pulumi.yaml");
    const yaml = await readFile(file, "utf8");
    if (!yaml.includes("virtualenv: venv")) throw new Error("examples/python/Pulumi.yaml changed");
    await writeFile(file, yaml.replace("virtualenv: venv", `virtualenv: ${venv}`));
    return { dir };
  },
});
