/**
 * `pulumi-voice-platform policy-pack DIR` and the pack folder the build writes for the npm package
 * (dist/provider/policy/pack; test/package/npm-pack.test.ts finds it in the tarball): a runnable
 * pack needs a PulumiPolicy.yaml, an entry and a package.json whose version @pulumi/policy reads.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCommandLine } from "../../../provider/cli/commands/command-line";
import { UsageError } from "../../../provider/cli/errors";
import { main } from "../../../provider/cli/main";
import { writePolicyPack } from "../../../provider/cli/commands/policy-pack";
import { packFiles } from "../../../provider/policy/pack-folder";

const REPO = join(__dirname, "..", "..", "..");
const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  version: string;
  scripts: Record<string, string>;
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "policy-pack-command-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("the pack's files: versioned as the package, loading the policy entry, written by the build", () => {
  expect(manifest.exports["./policy"]).toBeDefined();
  expect(manifest.exports["./testing"]).toBeDefined();
  expect(manifest.scripts.build).toMatch(/&& node dist\/provider\/policy\/pack-folder\.js$/);
  const files = packFiles();
  expect(Object.keys(files).sort()).toEqual(["PulumiPolicy.yaml", "index.js", "package.json"]);
  const pack = JSON.parse(files["package.json"]!) as {
    version: string;
    dependencies: Record<string, string>;
  };
  expect(pack.version).toBe(manifest.version);
  expect(pack.dependencies["pulumi-voice-platform"]).toBe(manifest.version);
  expect(Object.keys(pack.dependencies).sort()).toEqual([
    "@pulumi/policy",
    "@pulumi/pulumi",
    "pulumi-voice-platform",
  ]);
  expect(files["PulumiPolicy.yaml"]).toMatch(/^runtime: nodejs$/m);
  expect(files["index.js"]).toContain('require("pulumi-voice-platform/policy").runPolicyPack()');
});

test("@pulumi/policy is the pack's: an optional peer of the package, never a dependency", () => {
  expect(manifest.dependencies["@pulumi/policy"]).toBeUndefined();
  expect(manifest.peerDependencies["@pulumi/policy"]).toBeDefined();
  expect(manifest.peerDependenciesMeta["@pulumi/policy"]).toEqual({ optional: true });
});

test("policy-pack DIR is read from the command line, one folder and nothing else", () => {
  expect(parseCommandLine(["policy-pack", "voice-policies"])).toEqual({
    command: "policy-pack",
    dir: "voice-policies",
  });
  expect(() => parseCommandLine(["policy-pack"])).toThrow(UsageError);
  expect(() => parseCommandLine(["policy-pack", "a", "b"])).toThrow(UsageError);
  expect(() => parseCommandLine(["policy-pack", "a", "--stack", "dev"])).toThrow(UsageError);
});

test("policy-pack writes the pack's three files into a new folder and says what to run", async () => {
  const target = join(dir, "voice-policies");
  const result = await writePolicyPack({ dir: target });
  expect(result.exitCode).toBe(0);
  for (const [file, text] of Object.entries(packFiles())) {
    expect(readFileSync(join(target, file), "utf8")).toBe(text);
  }
  expect(result.text).toContain(`pulumi preview --policy-pack ${JSON.stringify(target)}`);
  // Again into the same folder: the pack's own files are rewritten.
  expect((await writePolicyPack({ dir: target })).exitCode).toBe(0);
});

test("policy-pack refuses a folder holding anything else, and writes nothing", async () => {
  writeFileSync(join(dir, "index.ts"), "// a program");
  const result = await writePolicyPack({ dir });
  expect(result.exitCode).toBe(1);
  expect(result.text).toContain("holds index.ts");
  expect(existsSync(join(dir, "PulumiPolicy.yaml"))).toBe(false);
});

test("the command runs through main with its exit status", async () => {
  const out = jest.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    expect(await main(["policy-pack", join(dir, "p")])).toBe(0);
  } finally {
    out.mockRestore();
  }
  expect(existsSync(join(dir, "p", "PulumiPolicy.yaml"))).toBe(true);
});
