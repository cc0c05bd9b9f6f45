/**
 * Golden stacks: what an earlier release of the package wrote into a user's state, kept as
 * fixtures under test/e2e/golden/<label>/, so the upgrade test proves the current build still
 * previews, updates, refreshes and destroys them, without git history and without installing an
 * old lock file.
 *
 * Each fixture is the output of one real `pulumi up` by that release, against the emulator:
 * - `stack.json`: `pulumi stack export` (secrets stay encrypted with the e2e passphrase);
 * - `Pulumi.dev.yaml`: the stack's config file (encryption salt, encrypted secret config);
 * - `emulator-state.json`: what the platform held afterwards, to start the emulator with;
 * - `program/`: the program and samples it ran;
 * - `fixture.json`: which release wrote it, with which Pulumi, and the emulator's API key.
 *
 * Write a new one whenever a release adds a state shape (see golden/README.md):
 * `npm run golden:write -- --label <label> [--tarball <package .tgz>] [--covers "<what is new>"]`.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { cli, E2EProject, PASSPHRASE, recorder } from "./harness";
import { programFiles } from "./program";
import { upWithPreview } from "../support/pulumi-up";

export const GOLDEN_DIR = join(__dirname, "golden");

/** The emulator key the golden stacks were written with: a test value, never a credential. */
const GOLDEN_API_KEY = "golden-stack-api-key-5c1e";
const STACK = "dev";

export interface GoldenMeta {
  readonly label: string;
  /** The package that wrote the state: its version and, when known, the commit it was built from. */
  readonly package: { readonly version: string; readonly commit?: string };
  readonly pulumiCli: string;
  readonly pulumiSdk: string;
  readonly writtenAt: string;
  /** What state shape this fixture is the first to hold. */
  readonly covers: string;
  readonly passphrase: string;
  readonly apiKey: string;
  /** Resources `up` created, the stack included. */
  readonly created: number;
}

export interface GoldenStack {
  readonly dir: string;
  readonly meta: GoldenMeta;
}

export function listGoldenStacks(): GoldenStack[] {
  if (!existsSync(GOLDEN_DIR)) return [];
  return readdirSync(GOLDEN_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(GOLDEN_DIR, entry.name))
    .map((dir) => ({
      dir,
      meta: JSON.parse(readFileSync(join(dir, "fixture.json"), "utf8")) as GoldenMeta,
    }));
}

/** The fixture's program, as files for E2EProject.create. */
async function programOf(golden: GoldenStack): Promise<Record<string, Buffer>> {
  const root = join(golden.dir, "program");
  const files: Record<string, Buffer> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files[relative(root, path)] = await readFile(path);
    }
  };
  await walk(root);
  return files;
}

export interface RestoredStack {
  readonly emulator: RunningEmulator;
  readonly project: E2EProject;
  readonly stack: Stack;
  close(): Promise<void>;
}

/**
 * The golden stack in a new project that has the CURRENT build installed: the emulator starts
 * with what the platform held, the stack's config file and exported state are imported, and the
 * platform's addresses come from the environment, as they did when the fixture was written.
 */
export async function restoreGoldenStack(golden: GoldenStack): Promise<RestoredStack> {
  const scratch = await mkdtemp(join(tmpdir(), "golden-emulator-"));
  const stateFile = join(scratch, "state.json");
  await copyFile(join(golden.dir, "emulator-state.json"), stateFile);
  const emulator = await startEmulator({ apiKey: golden.meta.apiKey, stateFile });
  const project = await E2EProject.create({ files: await programOf(golden) });
  await copyFile(
    join(golden.dir, `Pulumi.${STACK}.yaml`),
    join(project.dir, `Pulumi.${STACK}.yaml`),
  );
  const stack = await project.stack(STACK, { env: platformEnv(emulator) });
  await stack.importStack(JSON.parse(await readFile(join(golden.dir, "stack.json"), "utf8")));
  return {
    emulator,
    project,
    stack,
    async close() {
      await emulator.stop();
      await project.remove();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

function platformEnv(emulator: RunningEmulator): Record<string, string> {
  return {
    VOICEPLATFORM_BASE_URL: emulator.baseUrl,
    VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
  };
}

/**
 * Deploys the e2e program with the package of `tarball` (default: the working tree, packed) and
 * records the result as test/e2e/golden/<label>/.
 */
export async function writeGoldenStack(options: {
  label: string;
  covers: string;
  tarball?: string;
  commit?: string;
}): Promise<string> {
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(options.label)) {
    throw new Error(`label "${options.label}" must be lower-case letters, digits, dots and dashes`);
  }
  if (!cli) throw new Error("no Pulumi CLI: run `npm run pulumi:install` first");
  const target = join(GOLDEN_DIR, options.label);
  if (existsSync(target)) throw new Error(`${relative(process.cwd(), target)} exists already`);
  const scratch = await mkdtemp(join(tmpdir(), "golden-write-"));
  const stateFile = join(scratch, "state.json");
  const emulator = await startEmulator({ apiKey: GOLDEN_API_KEY, stateFile });
  const project = await E2EProject.create(
    options.tarball === undefined ? {} : { tarball: options.tarball },
  );
  try {
    const stack = await project.stack(STACK, {
      env: platformEnv(emulator),
      config: {
        "voiceplatform:apiKey": { value: GOLDEN_API_KEY, secret: true },
        "e2e:sipPassword": { value: "golden-sip-password-81f0", secret: true },
        "e2e:crmToken": { value: "golden-crm-token-2b9d", secret: true },
      },
    });
    const up = await upWithPreview(stack, recorder().options);
    const created = up.summary.resourceChanges?.create ?? 0;
    if (up.summary.result !== "succeeded" || created === 0) {
      throw new Error(`pulumi up did not create the stack: ${JSON.stringify(up.summary)}`);
    }
    const exported = withoutMachinePaths(await project.exportStackText(STACK), [
      project.dir,
      project.root,
      scratch,
      homedir(),
      tmpdir(),
    ]);
    const installed = (name: string) =>
      (
        JSON.parse(
          readFileSync(join(project.dir, "node_modules", name, "package.json"), "utf8"),
        ) as { version: string }
      ).version;
    const meta: GoldenMeta = {
      label: options.label,
      package: {
        version: installed("pulumi-voice-platform"),
        ...(options.commit === undefined ? {} : { commit: options.commit }),
      },
      pulumiCli: cli.version,
      pulumiSdk: installed("@pulumi/pulumi"),
      writtenAt: new Date().toISOString(),
      covers: options.covers,
      passphrase: PASSPHRASE,
      apiKey: GOLDEN_API_KEY,
      created,
    };
    await mkdir(join(target, "program"), { recursive: true });
    await writeFile(join(target, "stack.json"), exported);
    await copyFile(join(project.dir, `Pulumi.${STACK}.yaml`), join(target, `Pulumi.${STACK}.yaml`));
    await copyFile(stateFile, join(target, "emulator-state.json"));
    for (const [path, content] of Object.entries(programFiles())) {
      await mkdir(dirname(join(target, "program", path)), { recursive: true });
      await writeFile(join(target, "program", path), content);
    }
    await writeFile(join(target, "fixture.json"), `${JSON.stringify(meta, null, 2)}\n`);
    await stack.destroy();
    return target;
  } finally {
    await emulator.stop();
    await project.remove();
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The export without this machine's paths: the plugin paths the engine records in the manifest
 * are dropped, and any other string holding one of `roots` fails the write.
 */
export function withoutMachinePaths(exportText: string, roots: readonly string[]): string {
  const exported = JSON.parse(exportText) as {
    deployment?: { manifest?: { plugins?: Array<Record<string, unknown>> } };
  };
  for (const plugin of exported.deployment?.manifest?.plugins ?? []) delete plugin.path;
  const text = `${JSON.stringify(exported, null, 2)}\n`;
  const found = roots.filter((root) => root.length > 1 && text.includes(root));
  if (found.length > 0) {
    throw new Error(`the exported stack still holds machine paths (${found.join(", ")})`);
  }
  return text;
}

async function main(argv: string[]): Promise<void> {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({
    args: argv,
    options: {
      label: { type: "string" },
      covers: { type: "string" },
      tarball: { type: "string" },
      commit: { type: "string" },
    },
  });
  if (values.label === undefined || values.covers === undefined) {
    throw new Error(
      'usage: npm run golden:write -- --label <label> --covers "<state shape it adds>" [--tarball <.tgz>] [--commit <sha>]',
    );
  }
  const dir = await writeGoldenStack({
    label: values.label,
    covers: values.covers,
    ...(values.tarball === undefined ? {} : { tarball: values.tarball }),
    ...(values.commit === undefined ? {} : { commit: values.commit }),
  });
  console.log(`wrote ${relative(process.cwd(), dir)}`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
