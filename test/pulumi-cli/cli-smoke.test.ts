/**
 * Smoke test of the real Pulumi CLI (engine + Node.js language host + dynamic-provider launcher)
 * through the Automation API, against a temporary file backend. No network is needed.
 *
 * Needs a CLI: `npm run pulumi:install` (or a `pulumi` on PATH). Without one the suite is skipped
 * locally and fails when CI is set (requirePulumiCli).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { pulumiEnv, REPO_ROOT, repoBinDir, requestedCliVersion, testedCliVersion } from "./locate";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { upWithPreview } from "../support/pulumi-up";

const { cli, describe: withCli } = requirePulumiCli();

/** Which CLI was found decides, when the tests are defined, which of them check its hosts. */
const builtHere =
  cli !== undefined && path.resolve(cli.binDir) === path.resolve(repoBinDir() ?? "");
const sharedHostsBuild = fs.existsSync(
  path.join(REPO_ROOT, "..", "shared", "pulumi-language-hosts", "build.sh"),
);

withCli("Pulumi CLI smoke test (real engine, file backend)", () => {
  jest.setTimeout(180_000);

  let tmp: string;
  let pulumiCommand: PulumiCommand;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cli-smoke-"));
    fs.mkdirSync(path.join(tmp, "state"));
    fs.mkdirSync(path.join(tmp, "home"));
    const binDir = cli!.binDir;
    // PulumiCommand.get({ root }) runs <root>/bin/pulumi; a CLI elsewhere is taken from PATH.
    pulumiCommand = await PulumiCommand.get({
      ...(path.basename(binDir) === "bin" ? { root: path.dirname(binDir) } : {}),
      skipVersionCheck: true,
    });
  });

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Writes a Node.js project `name` whose index.js is `program`; returns its stack "dev". */
  async function project(name: string, program: string): Promise<Stack> {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name, private: true, main: "index.js" }),
    );
    fs.writeFileSync(path.join(dir, "index.js"), program);
    // The language host, the program and the dynamic provider resolve @pulumi/pulumi from here.
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");

    return LocalWorkspace.createOrSelectStack(
      { stackName: "dev", workDir: dir },
      {
        pulumiCommand,
        pulumiHome: path.join(tmp, "home"),
        envVars: pulumiEnv({
          ...process.env,
          PULUMI_BACKEND_URL: `file://${path.join(tmp, "state")}`,
          PULUMI_CONFIG_PASSPHRASE: "smoke-test",
        }) as Record<string, string>,
      },
    );
  }

  test("located CLI reports a version", () => {
    expect(cli!.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(fs.existsSync(cli!.pulumi)).toBe(true);
  });

  if (builtHere || requestedCliVersion() !== undefined) {
    // CI sets PULUMI_CLI_VERSION to package.json's config.pulumiCli: the tests run on that CLI.
    test("the CLI found is the version the tests name (PULUMI_CLI_VERSION, else config.pulumiCli)", () => {
      expect(cli!.version).toBe(testedCliVersion());
    });
  }

  /** The language hosts beside the CLI. */
  const languageHosts = () =>
    ["nodejs", "python", "go", "yaml"].filter((lang) =>
      fs.existsSync(path.join(cli!.binDir, `pulumi-language-${lang}`)),
    );
  /** Only the toolchain cache's build writes build-info beside its bin directory. */
  const buildInfo = () => path.join(path.dirname(cli!.binDir), "build-info");
  /** The language hosts build-info names: "shared <...>" when built from ../shared. */
  const builtHost = () =>
    /^language_host=(.*)$/m.exec(fs.readFileSync(buildInfo(), "utf8"))?.[1] ?? "";

  test("programs run through Pulumi's own Node.js language host, not the minimal stand-in", () => {
    expect(languageHosts()).toContain("nodejs");
  });

  if (!builtHere) {
    // A CLI installed some other way came with Pulumi's own hosts, found just above.
    test("a CLI found outside the toolchain cache has no build-info of the cache's build", () => {
      expect(fs.existsSync(buildInfo())).toBe(false);
    });
  } else if (sharedHostsBuild) {
    test("the toolchain cache's build has Pulumi's four language hosts, built from ../shared", () => {
      expect(fs.existsSync(buildInfo())).toBe(true);
      expect(builtHost()).toMatch(/^shared /);
      expect(languageHosts()).toEqual(["nodejs", "python", "go", "yaml"]);
    });
  } else {
    test("the toolchain cache's build names the language host it was built with", () => {
      expect(fs.existsSync(buildInfo())).toBe(true);
      expect(builtHost()).not.toBe("");
    });
  }

  test("up exports a value from a Node.js program, destroy empties the stack", async () => {
    const stack = await project(
      "smoke-output",
      `"use strict";
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
module.exports = { greeting: "hello " + (config.get("who") || "world"), stackName: pulumi.getStack() };
`,
    );
    await stack.setConfig("who", { value: "smoke" });

    const up = await upWithPreview(stack);
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.greeting?.value).toBe("hello smoke");
    expect(up.outputs.stackName?.value).toBe("dev");

    const destroy = await stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(await stack.outputs()).toEqual({});
    await stack.workspace.removeStack("dev");
  });

  test("a dynamic resource runs through pulumi-resource-pulumi-nodejs (create, preview, refresh, delete)", async () => {
    const marker = path.join(tmp, "deleted-id.txt");
    const stack = await project(
      "smoke-dynamic",
      `"use strict";
const pulumi = require("@pulumi/pulumi");
const provider = {
  async create(inputs) {
    return { id: "thing-" + inputs.n, outs: { n: inputs.n, doubled: inputs.n * 2, marker: inputs.marker } };
  },
  async delete(id, props) {
    require("fs").writeFileSync(props.marker, id);
  },
};
class Thing extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(provider, name, { doubled: undefined, ...args }, undefined, "smoke", "Thing");
  }
}
const thing = new Thing("t1", { n: 21, marker: ${JSON.stringify(marker)} });
module.exports = { id: thing.id, doubled: thing.doubled };
`,
    );

    const up = await upWithPreview(stack);
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs.id?.value).toBe("thing-21");
    expect(up.outputs.doubled?.value).toBe(42);

    // A second run sees no change (check/diff in a new provider process), refresh reads state.
    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
    const refresh = await stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");

    const state = await stack.exportStack();
    const types = (state.deployment.resources as { type: string }[]).map((r) => r.type);
    expect(types).toContain("pulumi-nodejs:dynamic/smoke:Thing");

    const destroy = await stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(fs.readFileSync(marker, "utf8")).toBe("thing-21");
    await stack.workspace.removeStack("dev");
  });
});
