/**
 * `npm run sdk:generate`: writes the package schema to provider/sdk/schema.json and regenerates
 * the SDKs under provider/sdk/<language> with Pulumi's own generators, `pulumi package gen-sdk`,
 * which hands the schema to each language host's GeneratePackage. Needs the Pulumi CLI with its
 * language hosts on PATH (test/pulumi-cli/README.md). test/languages/sdk-drift.test.ts fails when
 * the committed SDKs differ from what this writes.
 *
 * `--out DIR` writes into DIR instead (the drift test does), `--language L` limits it to one.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { promisify } from "node:util";
import { pinPulumiGoSdk } from "./go-module-file";
import { pythonEmulatorFixtureModule } from "./python-emulator-fixture";
import { pythonInputCheckModule } from "./python-input-check";
import { pythonTestingModule } from "./python-testing";
import { packageSchema, type ReleaseSchemaOptions } from "../schema/package-schema";

const run = promisify(execFile);

export const SDK_ROOT = join(__dirname, "..", "sdk");

/**
 * The languages generated and committed. C# is not among them: its generator lives only in
 * pulumi-language-dotnet, which is not available here (README, "Use it from any language").
 */
export const sdkLanguages = ["nodejs", "python", "go"] as const;
export type SdkLanguage = (typeof sdkLanguages)[number];

/** The schema exactly as written to schema.json (a release's settings given, or none). */
export function schemaText(release: ReleaseSchemaOptions = {}): string {
  return `${JSON.stringify(packageSchema(release), null, 2)}\n`;
}

function hostOnPath(language: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "")
    .split(delimiter)
    .some((dir) => dir !== "" && existsSync(join(dir, `pulumi-language-${language}`)));
}

/**
 * Runs gen-sdk for one language into `target` (replaced whole). It runs in an empty directory:
 * in the repository the CLI would load the root Pulumi.yaml and its plugins.
 */
async function generateOne(
  pulumi: string,
  schemaFile: string,
  language: SdkLanguage,
  target: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  if (!hostOnPath(language, env)) {
    throw new Error(
      `pulumi-language-${language} is not on PATH: put Pulumi's language hosts next to the CLI ` +
        `(test/pulumi-cli/README.md) to generate the ${language} SDK.`,
    );
  }
  const work = await mkdtemp(join(tmpdir(), `voiceplatform-gen-${language}-`));
  try {
    await run(
      pulumi,
      ["package", "gen-sdk", schemaFile, "--language", language, "--out", join(work, "out")],
      { cwd: work, env, maxBuffer: 16 * 1024 * 1024 },
    );
    await rm(target, { recursive: true, force: true });
    await mkdir(target, { recursive: true });
    // gen-sdk writes <out>/<language>.
    await cp(join(work, "out", language), target, { recursive: true });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`pulumi package gen-sdk --language ${language} failed: ${stderr ?? error}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export interface GenerateOptions {
  /** Where schema.json and the language folders go (default provider/sdk). */
  out?: string;
  languages?: readonly SdkLanguage[];
  /** The `pulumi` to run (default: the first on PATH). */
  pulumi?: string;
  env?: NodeJS.ProcessEnv;
  /** A release's pluginDownloadURL and Go module path (provider/release); none for the committed SDKs. */
  release?: ReleaseSchemaOptions;
}

/** Writes schema.json and one folder per language into `out`; returns the folders written. */
export async function generateSdks(options: GenerateOptions = {}): Promise<string[]> {
  const out = resolve(options.out ?? SDK_ROOT);
  const env = {
    ...(options.env ?? process.env),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
  await mkdir(out, { recursive: true });
  const schemaFile = join(out, "schema.json");
  await writeFile(schemaFile, schemaText(options.release));
  const written: string[] = [];
  // One at a time: each gen-sdk starts a language host, and the machines have two cores.
  for (const language of options.languages ?? sdkLanguages) {
    const target = join(out, language);
    await generateOne(options.pulumi ?? "pulumi", schemaFile, language, target, env);
    if (language === "python") await writePythonTesting(target);
    if (language === "go") await pinPulumiGoSdk(target);
    written.push(target);
  }
  return written;
}

/** The Python SDK's mocks module, which its package (and so the wheel) carries beside the generated code. */
export async function writePythonTesting(pythonSdk: string): Promise<void> {
  await writeFile(join(pythonSdk, "pulumi_voiceplatform", "testing.py"), pythonTestingModule());
  await writeFile(
    join(pythonSdk, "pulumi_voiceplatform", "_input_check.py"),
    pythonInputCheckModule(),
  );
  await writeFile(
    join(pythonSdk, "pulumi_voiceplatform", "pytest_emulator.py"),
    pythonEmulatorFixtureModule(),
  );
}

/** Every file under `dir`, as sorted relative paths. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

if (require.main === module) {
  const language = argument("--language");
  if (language !== undefined && !(sdkLanguages as readonly string[]).includes(language)) {
    process.stderr.write(`--language must be one of ${sdkLanguages.join(", ")}, not ${language}\n`);
    process.exit(2);
  }
  generateSdks({
    ...(argument("--out") === undefined ? {} : { out: argument("--out") }),
    ...(language === undefined ? {} : { languages: [language as SdkLanguage] }),
  }).then(
    (written) => process.stdout.write(`Generated:\n${written.map((d) => `  ${d}\n`).join("")}`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
