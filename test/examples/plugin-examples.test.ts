/**
 * The plugin's examples as a user runs them: `npm run example -- yaml` (run-example.ts)
 * against the emulator with this checkout's plugin on PATH, twice (the second run changes
 * nothing), then destroyed. The Python, Go and TypeScript examples go through the whole scenario
 * under test/languages (up, update, replacement, import, refresh, destroy).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runExample } from "./run-example";
import { requirePulumiCli } from "../support/require-pulumi-cli";

const { describe: withYaml } = requirePulumiCli({
  languageHosts: ["yaml"],
  purpose: "the plugin's examples",
});

withYaml("examples/yaml through the plugin", () => {
  jest.setTimeout(600_000);

  // Its own folder for what runs keep (backend, stack file, emulator state), not the repository's
  // .demo/, which `npm run demo -- --reset` in examples.test.ts removes, maybe meanwhile.
  let demoRoot: string;
  beforeAll(() => (demoRoot = mkdtempSync(join(tmpdir(), "voiceplatform-example-runs-"))));
  afterAll(() => rmSync(demoRoot, { recursive: true, force: true }));

  test("npm run example -- yaml creates the three resources; a second run changes nothing", async () => {
    let text = "";
    const output = (chunk: string) => (text += chunk);
    const outputs = await runExample("yaml", { output, demoRoot });
    expect(text).toMatch(/\+ 4 created/);
    // Nothing during the preview; one create per object (voice, carrier, webhook) after it.
    expect(text).toContain("The preview sent 0 requests");
    expect(text).toContain("The update sent 3 requests");
    expect(outputs.voiceId).toEqual(expect.any(String));
    expect(outputs.carrierId).toEqual(expect.any(String));
    expect(text).not.toContain("example-sip-password");

    text = "";
    await runExample("yaml", { output, demoRoot });
    expect(text).toMatch(/4 unchanged/);
    expect(text).toContain("The preview sent 0 requests");
    expect(text).toContain("The update sent 0 requests");

    text = "";
    await runExample("yaml", { destroy: true, output, demoRoot });
    expect(text).toMatch(/4 deleted/);
  });
});
