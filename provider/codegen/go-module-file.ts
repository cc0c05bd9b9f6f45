/**
 * The Go SDK's go.mod as gen-sdk writes it requires `github.com/pulumi/pulumi/sdk/v3 v3.30.0`, a
 * fixed line of Pulumi's Go generator, although the code it writes imports
 * `sdk/v3/go/pulumi/internals`, which that version lacks: `go mod tidy` in a user's program then
 * has to look a newer one up. The generated code is what this project's Pulumi version writes (its
 * language hosts are built at it), so that version's Go SDK is the floor the go.mod names.
 */
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

const REPO_ROOT = resolve(__dirname, "..", "..");

export const PULUMI_GO_SDK = "github.com/pulumi/pulumi/sdk/v3";

/** The Pulumi version the project builds on: package.json's exact `@pulumi/pulumi` pin. */
export function pulumiSdkPin(manifestFile = join(REPO_ROOT, "package.json")): string {
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as {
    devDependencies?: Record<string, string>;
  };
  const pin = manifest.devDependencies?.["@pulumi/pulumi"];
  if (pin === undefined || !/^\d+\.\d+\.\d+$/.test(pin)) {
    throw new Error(
      `${manifestFile}: devDependencies["@pulumi/pulumi"] is ${JSON.stringify(pin)}, not an exact ` +
        `version: pin it (e.g. "3.248.0"), since the Go SDK's go.mod requires that version.`,
    );
  }
  return pin;
}

/** `goMod` with its requirement of Pulumi's Go SDK at `v<version>`; throws when it has none. */
export function requirePulumiGoSdk(goMod: string, version: string): string {
  const line = new RegExp(
    `^(\\s*(?:require\\s+)?${PULUMI_GO_SDK.replace(/\./g, "\\.")}\\s+)v\\S+`,
    "m",
  );
  if (!line.test(goMod)) {
    throw new Error(
      `the generated go.mod requires no ${PULUMI_GO_SDK}: gen-sdk's Go output changed; ` +
        `look at it and update provider/codegen/go-module-file.ts.`,
    );
  }
  return goMod.replace(line, `$1v${version}`);
}

/** Rewrites `<goSdk>/go.mod` to require Pulumi's Go SDK at the project's Pulumi version. */
export async function pinPulumiGoSdk(goSdk: string, version = pulumiSdkPin()): Promise<void> {
  const file = join(goSdk, "go.mod");
  await writeFile(file, requirePulumiGoSdk(await readFile(file, "utf8"), version));
}
