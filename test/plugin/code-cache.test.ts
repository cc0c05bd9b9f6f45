/**
 * The npm bin's code cache (provider/plugin/code-cache.ts), with the packed package's bin started
 * as the engine starts it: the first start writes one private file into a private per-user
 * folder, the next start serves from it; a folder others can reach is not used, and
 * VOICEPLATFORM_CODE_CACHE=off writes nothing. The plugin answers in every case.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageVersion } from "../../provider/schema/package-schema";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import { startProviderProcess } from "../support/provider-process";

let project: string;
let root: string;

beforeAll(async () => {
  project = await createFixtureProject({ name: "code-cache-test" });
  root = await mkdtemp(join(tmpdir(), "voiceplatform-code-cache-"));
}, 180_000);

afterAll(async () => {
  if (project !== undefined) await removeFixtureProject(project);
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** Starts the bin with XDG_CACHE_HOME=`cacheHome` and checks it answers; returns its stop. */
async function startPlugin(cacheHome: string, env: NodeJS.ProcessEnv = {}) {
  const plugin = await startProviderProcess(
    project,
    { XDG_CACHE_HOME: cacheHome, ...env },
    { executable: join(project, "node_modules", ".bin", "pulumi-resource-voiceplatform") },
  );
  expect(await plugin.getPluginInfo()).toEqual({ version: packageVersion() });
  return () => plugin.close();
}

const folderIn = (cacheHome: string) => join(cacheHome, "pulumi-voice-platform", "code-cache");

/**
 * The files in `folder` once there is one and none is still being written (the plugin writes
 * `<file>.<pid>` and renames it), waiting as long as a loaded machine needs.
 */
async function writtenIn(folder: string): Promise<string[]> {
  for (;;) {
    const files = await readdir(folder).catch(() => [] as string[]);
    if (files.length > 0 && !files.some((file) => /\.\d+$/.test(file))) return files;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs a plugin with `cacheHome` beside one with a private cache folder, until the latter has
 * written its cache (so the former has had the same time to write one); returns what the former
 * left in its folder.
 */
async function besideAControl(cacheHome: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const control = join(root, `control-${Math.random().toString(36).slice(2)}`);
  const stops = [await startPlugin(cacheHome, env), await startPlugin(control)];
  try {
    await writtenIn(folderIn(control));
  } finally {
    for (const stop of stops) await stop();
  }
  return readdir(folderIn(cacheHome)).catch(() => []);
}

test("the first start writes one private cache file in a 0700 folder; the next one answers from it", async () => {
  const home = join(root, "fresh");
  const stop = await startPlugin(home);
  const files = await writtenIn(folderIn(home)).finally(stop);
  expect(files).toEqual([
    expect.stringMatching(/^pulumi-resource-voiceplatform\.js-[0-9a-f]{32}$/),
  ]);
  expect((await stat(folderIn(home))).mode & 0o777).toBe(0o700);
  expect((await stat(join(folderIn(home), files[0]!))).mode & 0o777).toBe(0o600);
  await (
    await startPlugin(home)
  )();
  expect(await readdir(folderIn(home))).toEqual(files);
}, 120_000);

test("a cache folder others can reach is not used", async () => {
  const home = join(root, "shared");
  await mkdir(folderIn(home), { recursive: true });
  await chmod(folderIn(home), 0o777);
  expect(await besideAControl(home)).toEqual([]);
}, 120_000);

test("VOICEPLATFORM_CODE_CACHE=off writes nothing", async () => {
  const home = join(root, "off");
  expect(await besideAControl(home, { VOICEPLATFORM_CODE_CACHE: "off" })).toEqual([]);
}, 120_000);
