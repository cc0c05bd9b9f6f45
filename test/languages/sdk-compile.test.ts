/**
 * Each committed SDK compiles with its language's own toolchain: the Node.js SDK with tsc (its
 * own tsconfig), the Python SDK installs with pip into a virtualenv with `pulumi` from PyPI and
 * imports, the Go SDK builds and vets against sdk/v3 from the module proxy. Results are cached by
 * content (toolchains.ts), so a rerun without SDK changes costs seconds.
 */
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goEnv, nodeSdk, pulumiVersion, pythonVenv, runTool, SDK_DIR, timings } from "./toolchains";

const resourceClasses = ["Provider", "Voice", "SipCarrier", "CampaignWebhook"];

jest.setTimeout(900_000);

afterAll(() => console.log(`SDK compile timings (ms): ${JSON.stringify(timings)}`));

test("the Node.js SDK compiles with tsc and declares every resource", async () => {
  const sdk = await nodeSdk();
  const declarations = await readFile(join(sdk.dir, "bin", "index.d.ts"), "utf8");
  for (const name of resourceClasses) expect(declarations).toMatch(new RegExp(`\\b${name}\\b`));
  const manifest = JSON.parse(await readFile(join(sdk.dir, "package.json"), "utf8")) as {
    name: string;
    pulumi?: { name?: string };
  };
  expect(manifest).toMatchObject({
    name: "pulumi-voice-platform-sdk",
    pulumi: { name: "voiceplatform" },
  });
});

test("the Python SDK installs with pip and imports beside pulumi from PyPI", async () => {
  const venv = await pythonVenv();
  const script = [
    "import json, pulumi, pulumi_voiceplatform as v",
    `print(json.dumps({"pulumi": pulumi.__version__ if hasattr(pulumi, "__version__") else None,`,
    `  "classes": [n for n in ${JSON.stringify(resourceClasses)} if isinstance(getattr(v, n, None), type)]}))`,
  ].join("\n");
  const printed = JSON.parse(
    await runTool(join(venv, "bin", "python"), ["-c", script], { cwd: tmpdir() }),
  ) as { classes: string[] };
  expect(printed.classes).toEqual(resourceClasses);
  const pip = await runTool(join(venv, "bin", "pip"), ["show", "pulumi"], { cwd: tmpdir() });
  expect(pip).toContain(`Version: ${pulumiVersion()}`);
});

test("the Go SDK builds and vets against sdk/v3 from the module proxy", async () => {
  // A copy: go writes go.mod and go.sum, and the committed SDK stays as generated.
  const dir = await mkdtemp(join(tmpdir(), "voiceplatform-go-sdk-"));
  try {
    await cp(join(SDK_DIR, "go"), dir, { recursive: true });
    const started = Date.now();
    // The generated go.mod asks for sdk/v3 v3.30.0, older than packages the SDK imports; a
    // program's own requirement decides (minimal version selection), as here the CLI's.
    const sdk = `github.com/pulumi/pulumi/sdk/v3@v${pulumiVersion()}`;
    await runTool("go", ["mod", "edit", `-require=${sdk}`], { cwd: dir, env: goEnv() });
    await runTool("go", ["mod", "tidy"], { cwd: dir, env: goEnv() });
    // -trimpath as Pulumi's Go host builds programs: the packages compiled here are then reused
    // from the build cache when the host builds examples/go.
    await runTool("go", ["build", "-trimpath", "./..."], { cwd: dir, env: goEnv() });
    await runTool("go", ["vet", "./..."], { cwd: dir, env: goEnv() });
    timings["go: build + vet"] = Date.now() - started;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
