/**
 * Independent clients of the schema agree with it: `pulumi schema check` passes, and every YAML
 * program users are shown (docs/, examples/yaml) converts with `pulumi convert` to Python,
 * TypeScript and Go without an error or an undefined name, the schema coming from the plugin on
 * PATH as a user's would; the converted Python of examples/yaml then previews on the emulator
 * with the generated SDK, sending nothing.
 *
 * `pulumi convert --from yaml` runs the converter plugin `pulumi-converter-yaml`, which
 * `npm run pulumi:install` builds beside the CLI.
 */
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { cli } from "../e2e/harness";
import { createFixtureProject, removeFixtureProject, REPO_ROOT } from "../support/packed-package";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { shownYamlPrograms } from "../support/yaml-programs";
import { pythonVenv, runTool } from "./toolchains";
import { YamlStack } from "./yaml-stack";

const converter = cli === undefined ? undefined : join(cli.binDir, "pulumi-converter-yaml");

const { describe: describeConvert } = requirePulumiCli({
  languageHosts: ["yaml", "python", "go", "nodejs"],
  also: [
    {
      available: converter !== undefined && existsSync(converter),
      missing:
        "pulumi-converter-yaml is not beside the Pulumi CLI: run `npm run pulumi:install`, which builds it",
    },
  ],
  purpose: "`pulumi convert` of the programs the docs and examples show",
});

const languages = ["python", "typescript", "go"] as const;
const API_KEY = "convert-api-key-5Jw9";

/** ANSI colour codes out: the converter colours its diagnostics. */
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");

describeConvert("the programs users are shown, converted by the real CLI", () => {
  jest.setTimeout(600_000);
  let project: string;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const started = Date.now();

  beforeAll(async () => {
    project = await createFixtureProject({ name: "convert-programs" });
    work = await mkdtemp(join(tmpdir(), "voiceplatform-convert-"));
    env = {
      ...process.env,
      // The plugin as a user has it, for the schema; the CLI's own plugins beside it.
      PATH: [join(project, "node_modules", ".bin"), cli!.binDir, process.env.PATH].join(delimiter),
      PULUMI_HOME: join(work, ".pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
  }, 600_000);

  afterAll(async () => {
    console.log(`convert suite: ${Math.round((Date.now() - started) / 1000)} s`);
    if (project !== undefined) await removeFixtureProject(project);
    if (work !== undefined) await rm(work, { recursive: true, force: true });
  });

  it("`pulumi schema check` accepts the committed schema", async () => {
    await runTool(
      cli!.pulumi,
      ["schema", "check", join(REPO_ROOT, "provider", "sdk", "schema.json")],
      {
        cwd: work,
        env,
      },
    );
  });

  const cases = shownYamlPrograms().flatMap((program) =>
    languages.map((language) => [program.where, language, program.text] as const),
  );

  it.each(cases)(
    "%s converts to %s without an error or an undefined name",
    async (where, language, text) => {
      const dir = await mkdtemp(join(work, "program-"));
      await writeFile(join(dir, "Pulumi.yaml"), text);
      const out = join(dir, language);
      const printed = plain(
        await runTool(
          cli!.pulumi,
          [
            "convert",
            "--from",
            "yaml",
            "--language",
            language,
            "--out",
            out,
            "--generate-only",
            "--non-interactive",
          ],
          { cwd: dir, env },
        ).catch((error: Error) => error.message),
      );
      expect({
        where,
        language,
        problems: printed.match(/^.*\b(error|undefined|unknown config)\b.*$/gim) ?? [],
      }).toEqual({
        where,
        language,
        problems: [],
      });
      const main = { python: "__main__.py", typescript: "index.ts", go: "main.go" }[language];
      expect(await readdir(out)).toContain(main);
    },
  );

  describe("the converted Python of examples/yaml", () => {
    let emulator: RunningEmulator;
    let stack: YamlStack;

    beforeAll(async () => {
      emulator = await startEmulator({ apiKey: API_KEY });
      const dir = await mkdtemp(join(work, "examples-yaml-"));
      await cp(join(REPO_ROOT, "examples", "yaml"), dir, { recursive: true });
      await runTool(
        cli!.pulumi,
        [
          "convert",
          "--from",
          "yaml",
          "--language",
          "python",
          "--out",
          "python",
          "--generate-only",
          "--non-interactive",
        ],
        { cwd: dir, env },
      );
      const python = join(dir, "python");
      await cp(join(dir, "samples"), join(python, "samples"), { recursive: true });
      // The generated SDK, installed as examples/python's README has users install it.
      await symlink(await pythonVenv(), join(python, "venv"), "dir");
      // The virtualenv as examples/python's Pulumi.yaml names it.
      const manifest = await readFile(join(python, "Pulumi.yaml"), "utf8");
      await writeFile(
        join(python, "Pulumi.yaml"),
        manifest.replace(
          /^runtime: python$/m,
          "runtime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv",
        ),
      );
      stack = await YamlStack.forProject(python, {
        PATH: env.PATH,
        VOICEPLATFORM_BASE_URL: emulator.baseUrl,
        VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
      });
      await stack.config(
        { "voiceplatform:apiKey": API_KEY, sipPassword: "convert-sip-password-3Hh6" },
        true,
      );
    }, 600_000);

    afterAll(async () => {
      await emulator?.stop();
    });

    it("previews every create and sends nothing", async () => {
      const preview = await stack.must(["preview"]);
      expect(preview.stdout).toMatch(/\+ 4 to create/);
      expect(await emulator.requests()).toEqual([]);
    });
  });
});
