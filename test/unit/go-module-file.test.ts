/**
 * The Go SDK's go.mod requires Pulumi's Go SDK at the project's Pulumi version, the one whose
 * generator wrote the code (which imports sdk/v3/go/pulumi/internals), not gen-sdk's fixed
 * v3.30.0: so `go mod tidy` in a user's program finds every package without looking one up.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  PULUMI_GO_SDK,
  pulumiSdkPin,
  requirePulumiGoSdk,
} from "../../provider/codegen/go-module-file";

const REPO_ROOT = join(__dirname, "..", "..");

/** The `github.com/pulumi/pulumi/sdk/v3` version a go.mod requires. */
function requiredPulumiSdk(goMod: string): string | undefined {
  return /github\.com\/pulumi\/pulumi\/sdk\/v3\s+v(\S+)/.exec(goMod)?.[1];
}

test("the committed Go SDK requires Pulumi's Go SDK at the project's Pulumi version, not gen-sdk's v3.30.0", async () => {
  const goMod = await readFile(join(REPO_ROOT, "provider", "sdk", "go", "go.mod"), "utf8");
  // v3.30.0 predates the internals package the generated code imports.
  expect(requiredPulumiSdk(goMod)).toBe(pulumiSdkPin());
});

test.each([
  ["one require line", "module m\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.30.0\n"],
  [
    "a require block",
    "module m\n\nrequire (\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.30.0\n\texample.com/x v1.0.0\n)\n",
  ],
])("gen-sdk's requirement in %s is raised, the rest kept", (_, goMod) => {
  const raised = requirePulumiGoSdk(goMod, "3.248.0");
  expect(raised).toBe(goMod.replace("v3.30.0", "v3.248.0"));
});

test("a go.mod without the requirement is refused, naming what to look at", () => {
  expect(() => requirePulumiGoSdk("module m\n\ngo 1.25\n", "3.248.0")).toThrow(
    `the generated go.mod requires no ${PULUMI_GO_SDK}: gen-sdk's Go output changed`,
  );
});

test("a range in package.json's @pulumi/pulumi is refused: the go.mod needs one version", async () => {
  const dir = await mkdtemp(join(tmpdir(), "voiceplatform-go-pin-"));
  try {
    const manifest = join(dir, "package.json");
    await writeFile(
      manifest,
      JSON.stringify({ devDependencies: { "@pulumi/pulumi": "^3.139.0" } }),
    );
    expect(() => pulumiSdkPin(manifest)).toThrow(
      `devDependencies["@pulumi/pulumi"] is "^3.139.0", not an exact version: pin it`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
