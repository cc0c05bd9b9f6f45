/**
 * The generated SDKs as packages users install: the Python wheel and sdist, the npm tarball of
 * the Node.js SDK, and the Go module as a folder (and a tarball of it). Each is built from a
 * generated SDK folder (provider/codegen/generate-sdks.ts), never from hand-edited files.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { extract } from "tar";
import { stampTree, writeReproducibleTarGz } from "./reproducible-archive";
import { defaultToolsFolder, privateToolsFolder } from "./tools-folder";
import { ReleaseToolError } from "./errors";

const run = promisify(execFile);

const REPO_ROOT = join(__dirname, "..", "..");

/** Runs a tool, failing with what it printed and where. */
async function tool(file: string, args: string[], cwd: string, env = process.env): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new ReleaseToolError(
      file,
      `${file} ${args.join(" ")} (in ${cwd}) failed:\n${stdout ?? ""}${stderr ?? ""}`,
    );
  }
}

/**
 * A virtualenv with PyPA's `build` and setuptools, made once in the private tools folder
 * (tools-folder.ts) and reused: `python -m build --no-isolation` then needs no index for each
 * build.
 */
async function pythonBuildVenv(toolsFolder: string): Promise<string> {
  return pythonToolVenv(toolsFolder, "python-build", ["build", "setuptools>=61", "wheel"]);
}

/**
 * The python of a virtualenv named `name` in the private tools folder holding `requirements`,
 * made on first use. The folder is checked before its `.ready` mark is trusted or its python
 * runs. It is made under a name of its own and renamed into place when ready, so two releases
 * (or a release and a test) starting at once on a new machine do not build into the same folder;
 * only `bin/python -m` is run from it, which finds the environment from the pyvenv.cfg beside it
 * wherever it lies.
 */
export async function pythonToolVenv(
  toolsFolder: string,
  name: string,
  requirements: readonly string[],
): Promise<string> {
  const tools = await privateToolsFolder(toolsFolder);
  const venv = join(tools, name);
  const python = join(venv, "bin", "python");
  if (existsSync(join(venv, ".ready"))) return python;
  const making = await mkdtemp(join(tools, `${name}-making-`));
  try {
    await tool(process.env.PYTHON ?? "python3", ["-m", "venv", making], tools);
    await tool(
      join(making, "bin", "python"),
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...requirements],
      tools,
    );
    await writeFile(join(making, ".ready"), "");
    await moveVenvIntoPlace(making, venv);
  } finally {
    await rm(making, { recursive: true, force: true });
  }
  return python;
}

/**
 * Renames the ready virtualenv `making` to `venv`. One that another process put there meanwhile
 * does as well; one without `.ready` was left by a build stopped before it was done (releases
 * before this one built in place) and is replaced.
 */
export async function moveVenvIntoPlace(making: string, venv: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await rename(making, venv);
      return;
    } catch (error) {
      if (existsSync(join(venv, ".ready"))) return;
      if (attempt === 2) throw error;
      await rm(venv, { recursive: true, force: true });
    }
  }
}

/**
 * Builds the wheel and sdist of a generated Python SDK into `outDir`; returns their paths. Every
 * file in them carries the time `epochSeconds` (SOURCE_DATE_EPOCH for the wheel's zip), and the
 * sdist is written again reproducibly (Python's tarfile stamps its gzip header with the time of
 * the build). The build tools come from `toolsFolder` (default the per-user one).
 */
export async function buildPythonPackages(
  sdkDir: string,
  outDir: string,
  options: { epochSeconds: number; toolsFolder?: string },
): Promise<string[]> {
  const python = await pythonBuildVenv(options.toolsFolder ?? defaultToolsFolder());
  // From a copy: setuptools writes build/ and *.egg-info beside the sources.
  const work = await mkdtemp(join(tmpdir(), "voiceplatform-python-build-"));
  try {
    await cp(sdkDir, join(work, "sdk"), { recursive: true });
    await stampTree(join(work, "sdk"), options.epochSeconds);
    await mkdir(outDir, { recursive: true });
    const before = new Set(existsSync(outDir) ? await readdir(outDir) : []);
    await tool(
      python,
      [
        "-m",
        "build",
        "--no-isolation",
        "--sdist",
        "--wheel",
        "--outdir",
        outDir,
        join(work, "sdk"),
      ],
      work,
      { ...process.env, SOURCE_DATE_EPOCH: String(options.epochSeconds) },
    );
    const built = (await readdir(outDir)).filter((name) => !before.has(name));
    const sdist = built.find((n) => n.endsWith(".tar.gz"));
    if (!built.some((n) => n.endsWith(".whl")) || sdist === undefined) {
      throw new ReleaseToolError(
        "python -m build",
        `python -m build made ${built.join(", ") || "nothing"}: expected a wheel and an sdist`,
      );
    }
    await rewriteReproducibly(join(outDir, sdist), join(work, "sdist"), options.epochSeconds);
    return built.sort().map((name) => join(outDir, name));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Unpacks the .tar.gz `file` into `scratch` and writes it again with writeReproducibleTarGz. */
async function rewriteReproducibly(file: string, scratch: string, epochSeconds: number) {
  await mkdir(scratch);
  await extract({ file, cwd: scratch });
  await rm(file);
  await writeReproducibleTarGz({ dir: scratch, file, epochSeconds });
}

/**
 * Compiles a generated Node.js SDK with the repository's TypeScript and @pulumi/pulumi (its own
 * tsconfig) into `<workDir>/package/bin` and packs that into `outDir`, as Pulumi's providers
 * publish their Node.js SDKs (utilities.ts reads ./package.json beside the compiled files).
 * Returns the tarball's path. A type error fails with tsc's messages.
 */
export async function packNodeSdk(
  sdkDir: string,
  workDir: string,
  outDir: string,
): Promise<string> {
  const pkg = join(workDir, "package");
  await cp(sdkDir, pkg, { recursive: true });
  await symlink(join(REPO_ROOT, "node_modules"), join(pkg, "node_modules"), "dir");
  try {
    await tool(process.execPath, [join(REPO_ROOT, "node_modules/typescript/bin/tsc")], pkg);
  } finally {
    await rm(join(pkg, "node_modules"));
  }
  for (const file of ["package.json", "README.md"])
    await cp(join(pkg, file), join(pkg, "bin", file));
  await mkdir(outDir, { recursive: true });
  const packed = await tool(
    "npm",
    ["pack", "--pack-destination", outDir, "--loglevel=error", "--json"],
    join(pkg, "bin"),
  );
  const [{ filename }] = JSON.parse(packed) as [{ filename: string }];
  return join(outDir, filename);
}

/** Copies a generated Go SDK to `<outDir>/go` and archives it beside; returns both paths. */
export async function packGoModule(
  sdkDir: string,
  outDir: string,
  version: string,
  epochSeconds: number,
): Promise<{ dir: string; tarball: string }> {
  const dir = join(outDir, "go");
  await rm(dir, { recursive: true, force: true });
  await cp(sdkDir, dir, { recursive: true });
  const tarball = join(outDir, `pulumi-voiceplatform-go-sdk-v${version}.tar.gz`);
  await writeReproducibleTarGz({ dir, file: tarball, epochSeconds });
  return { dir, tarball };
}
