/**
 * An example as a user gets it: copied out of the repository into a directory of its own, with
 * its dependencies installed there the way its README says (the packed package, the generated
 * SDK), so nothing resolves through the repository's node_modules or a path into the checkout.
 * Used by the examples' test, the language suites and `npm run example`.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { goEnv, nodeSdk, pythonVenv, replaceGoSdk } from "../languages/toolchains";
import { createFixtureProject, npmEnv, packPackage, REPO_ROOT } from "../support/packed-package";

const run = promisify(execFile);

/** Every example that is a Pulumi program (examples/gitops is a CI workflow). */
export const runnableExamples = [
  "basic",
  "environments",
  "yaml",
  "python",
  "go",
  "plugin-typescript",
] as const;
export type RunnableExample = (typeof runnableExamples)[number];

export const isRunnableExample = (name: string): name is RunnableExample =>
  (runnableExamples as readonly string[]).includes(name);

/** The secret config each program reads from its own namespace, besides voiceplatform:apiKey. */
export const exampleSecrets: Record<RunnableExample, readonly string[]> = {
  basic: ["sipPassword", "crmToken"],
  environments: ["sipPassword"],
  yaml: ["sipPassword"],
  python: ["sipPassword"],
  go: ["sipPassword"],
  "plugin-typescript": ["sipPassword"],
};

/** The project name of a copy's Pulumi.yaml: the namespace of its own config keys. */
export async function projectName(dir: string): Promise<string> {
  const name = /^name:\s*(\S+)/m.exec(await readFile(join(dir, "Pulumi.yaml"), "utf8"))?.[1];
  if (name === undefined) throw new Error(`no name in ${dir}/Pulumi.yaml`);
  return name;
}

/** Programs that run in Node.js, inside the project the packed package is installed into. */
const nodePrograms: readonly RunnableExample[] = ["basic", "environments", "plugin-typescript"];

export interface ExampleCopy {
  /** Everything the copy holds; remove it when done. */
  readonly root: string;
  /** The project directory (its Pulumi.yaml). */
  readonly dir: string;
  /** The environment its Pulumi runs need: the plugin on PATH, the Go toolchain's settings. */
  readonly env: Record<string, string>;
}

/** What a user's copy never holds: installed dependencies and files a run writes. */
const notCopied = /(^|\/)(node_modules|venv|__pycache__|\.stamp-out)$/;

export async function copyExampleOut(example: RunnableExample): Promise<ExampleCopy> {
  const root = await mkdtemp(join(tmpdir(), `voiceplatform-example-${example}-`));
  try {
    // `npm install` of the packed package: the dynamic resources, and the plugin in .bin.
    const installed = join(root, "installed");
    await rename(await createFixtureProject({ name: `voiceplatform-${example}` }), installed);
    const dir = nodePrograms.includes(example) ? installed : join(root, example);
    await cp(join(REPO_ROOT, "examples", example), dir, {
      recursive: true,
      filter: (source) => !notCopied.test(source),
    });
    const env: Record<string, string> = {
      PATH: `${join(installed, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`,
    };
    switch (example) {
      case "plugin-typescript":
        await unpackInto(dir, (await nodeSdk()).tarball, "pulumi-voice-platform-sdk");
        break;
      case "python":
        // The README's `pip install <clone>/provider/sdk/python -r requirements.txt` into ./venv,
        // made once per SDK content and shared.
        await symlink(await pythonVenv(), join(dir, "venv"), "dir");
        break;
      case "go": {
        await replaceGoSdk(dir);
        const { GOFLAGS, GOTOOLCHAIN } = goEnv();
        Object.assign(env, { GOFLAGS: GOFLAGS!, GOTOOLCHAIN: GOTOOLCHAIN! });
        break;
      }
    }
    return { root, dir, env };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/** What `npm install <tarball>` leaves in node_modules/<name>, without a registry round trip. */
async function unpackInto(project: string, tarball: string, name: string): Promise<void> {
  const staging = await mkdtemp(join(tmpdir(), "voiceplatform-unpack-"));
  try {
    await run("tar", ["-xzf", tarball, "-C", staging]);
    await rename(join(staging, "package"), join(project, "node_modules", name));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * examples/environments copied out and installed as its README says: `npm ci` from its own
 * lockfile, `tsx` included. The registry has no pulumi-voice-platform before the release, so the
 * lockfile's one entry the release completes (its integrity) is pointed at the packed package;
 * every other dependency is installed as the committed lockfile pins it.
 */
export async function copyEnvironmentsWithLockfile(): Promise<{ root: string; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), "voiceplatform-environments-ci-"));
  try {
    const dir = join(root, "environments");
    await cp(join(REPO_ROOT, "examples", "environments"), dir, {
      recursive: true,
      filter: (source) => !notCopied.test(source),
    });
    await pointLockfileAtPackedPackage(join(dir, "package-lock.json"));
    await run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      env: npmEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    return { root, dir };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

async function pointLockfileAtPackedPackage(lockfile: string): Promise<void> {
  const tarball = await packPackage();
  const lock = JSON.parse(await readFile(lockfile, "utf8")) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const entry = lock.packages["node_modules/pulumi-voice-platform"];
  if (entry === undefined) throw new Error(`${lockfile} has no pulumi-voice-platform`);
  const digest = createHash("sha512")
    .update(await readFile(tarball))
    .digest("base64");
  Object.assign(entry, { resolved: `file:${tarball}`, integrity: `sha512-${digest}` });
  await writeFile(lockfile, JSON.stringify(lock, null, 2));
}
