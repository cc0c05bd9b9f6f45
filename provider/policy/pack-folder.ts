/**
 * The policy pack's folder: what `pulumi preview --policy-pack DIR` runs. `npm run build` writes
 * it to dist/provider/policy/pack (so the package carries it, with the package's version, which
 * @pulumi/policy reads from the folder's package.json), and `pulumi-voice-platform policy-pack
 * DIR` writes the same files where a user asks. Its index.js finds @pulumi/policy and this package
 * from the folder upwards: in a project that has both installed, or in the folder's own
 * node_modules after `npm install` there.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packageVersion } from "../schema/package-schema";

/** The @pulumi/policy the rules are written and tested against, and later 1.x releases. */
const POLICY_SDK_RANGE = "^1.21.0";

/** The pack's files by name, for this package's version. */
export function packFiles(version: string = packageVersion()): Record<string, string> {
  return {
    "PulumiPolicy.yaml":
      "runtime: nodejs\ndescription: The voice platform's rules that no schema holds (docs/policies.md of pulumi-voice-platform).\n",
    "index.js":
      "// The voice platform's rules (docs/policies.md of pulumi-voice-platform), served to the engine.\n" +
      'require("pulumi-voice-platform/policy").runPolicyPack();\n',
    "package.json": `${JSON.stringify(
      {
        name: "pulumi-voice-platform-policies",
        version,
        description: "The voice platform's rules as a Pulumi policy pack.",
        private: true,
        main: "index.js",
        dependencies: {
          "@pulumi/policy": POLICY_SDK_RANGE,
          "@pulumi/pulumi": "^3.139.0",
          "pulumi-voice-platform": version,
        },
      },
      null,
      2,
    )}\n`,
  };
}

export async function writePackFolder(dir: string, version?: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(packFiles(version))) {
    await writeFile(join(dir, name), text);
  }
}

// `npm run build`'s step, run from dist/ by node: the folder beside this module.
if (require.main === module) {
  writePackFolder(join(__dirname, "pack")).catch((error: unknown) => {
    process.stderr.write(`writing the policy pack's folder failed: ${String(error)}\n`);
    process.exitCode = 1;
  });
}
