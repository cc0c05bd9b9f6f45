/**
 * The committed SDKs are what `npm run sdk:generate` writes from the plugin's schema today: they
 * are regenerated with `pulumi package gen-sdk` (Pulumi's language hosts next to the CLI) into a
 * temporary directory and compared file by file. schema.json itself is compared in the unit tier
 * (test/unit/sdk-schema.test.ts).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSdks, listFiles, sdkLanguages } from "../../provider/codegen/generate-sdks";
import { pulumiEnv } from "../pulumi-cli/locate";
import { cli, describeE2E } from "../e2e/harness";
import { runTool, SDK_DIR } from "./toolchains";

const REGENERATE = "Run `npm run sdk:generate` and commit provider/sdk.";

describeE2E("the generated SDKs", () => {
  let out: string;

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "voiceplatform-sdk-drift-"));
    const started = Date.now();
    await generateSdks({ out, pulumi: cli!.pulumi, env: pulumiEnv() });
    console.log(`gen-sdk for ${sdkLanguages.join(", ")}: ${Date.now() - started} ms`);
  });

  afterAll(async () => {
    if (out !== undefined) await rm(out, { recursive: true, force: true });
  });

  test.each(sdkLanguages)(
    "the committed %s SDK is what gen-sdk writes from the schema",
    async (language) => {
      const committed = join(SDK_DIR, language);
      const fresh = join(out, language);
      const files = await listFiles(fresh);
      // What git tracks: a local pip install or tsc build leaves ignored files beside the sources.
      const tracked = (await runTool("git", ["ls-files", "--", "."], { cwd: committed }))
        .split("\n")
        .filter((line) => line !== "")
        .sort();
      expect({ files: tracked, fix: REGENERATE }).toEqual({ files, fix: REGENERATE });
      const differing: string[] = [];
      for (const file of files) {
        const [a, b] = await Promise.all([
          readFile(join(committed, file)),
          readFile(join(fresh, file)),
        ]);
        if (!a.equals(b)) differing.push(file);
      }
      expect({ differing, fix: REGENERATE }).toEqual({ differing: [], fix: REGENERATE });
    },
  );
});
