/**
 * examples/go through the plugin, under Pulumi's Go language host: the shared scenario
 * (scenario.ts). The host builds the program with the Go toolchain against the generated module
 * in this checkout (a `replace` directive) and sdk/v3 from the module proxy.
 */
import { describeScenario } from "./scenario";
import { goEnv, replaceGoSdk } from "./toolchains";

describeScenario({
  language: "Go",
  example: "go",
  async prepare(dir) {
    await replaceGoSdk(dir);
    const { GOFLAGS, GOTOOLCHAIN } = goEnv();
    return { dir, env: { GOFLAGS: GOFLAGS!, GOTOOLCHAIN: GOTOOLCHAIN! } };
  },
});
