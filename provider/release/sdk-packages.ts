/**
 * The generated SDKs as packages users install: the Python wheel and sdist, the npm tarball of
 * the Node.js SDK, and the Go module as a folder (and a tarball of it). Each is built from a
 * generated SDK folder (provider/sdk/generate-sdks.ts), never from hand-edited files.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

const REPO_ROOT = join(__dirname, "..", "..");

/** Runs a tool, failing with what it printed and where. */
async function tool(file: string, args: string[], cwd: string, env = process.env): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${file} ${args.join(" ")} (in ${cwd}) failed:\n${stdout ?? ""}${stderr ?? ""}`,
    );
  }
}

/**
 * A virtualenv with PyPA's `build` and setuptools, made once under `toolsDir` and reused:
 * `python -m build --no-isolation` then needs no index for each build.
 */
async function pythonBuildVenv(toolsDir: string): Promise<string> {
  const venv = join(toolsDir, "python-build");
  const python = join(venv, "bin", "python");
  if (existsSync(join(venv, ".ready"))) return python;
  await rm(venv, { recursive: true, force: true });
  await tool(process.env.PYTHON ?? "python3", ["-m", "venv", venv], toolsDir);
  await tool(
    python,
    [
      "-m",
      "pip",
      "install",
      "--quiet",
      "--disable-pip-version-check",
      "build",
      "setuptools>=61",
      "wheel",
    ],
    toolsDir,
  );
  await tool("touch", [join(venv, ".ready")], toolsDir);
  return python;
}

/** Builds the wheel and sdist of a generated Python SDK into `outDir`; returns their paths. */
export async function buildPythonPackages(
  sdkDir: string,
  outDir: string,
  toolsDir: string,
): Promise<string[]> {
  const python = await pythonBuildVenv(toolsDir);
  // From a copy: setuptools writes build/ and *.egg-info beside the sources.
  const work = await mkdtemp(join(tmpdir(), "voiceplatform-python-build-"));
  try {
    await cp(sdkDir, join(work, "sdk"), { recursive: true });
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
    );
    const built = (await readdir(outDir)).filter((name) => !before.has(name));
    if (!built.some((n) => n.endsWith(".whl")) || !built.some((n) => n.endsWith(".tar.gz"))) {
      throw new Error(
        `python -m build made ${built.join(", ") || "nothing"}: expected a wheel and an sdist`,
      );
    }
    return built.sort().map((name) => join(outDir, name));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
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
): Promise<{ dir: string; tarball: string }> {
  const dir = join(outDir, "go");
  await rm(dir, { recursive: true, force: true });
  await cp(sdkDir, dir, { recursive: true });
  const tarball = join(outDir, `pulumi-voiceplatform-go-sdk-v${version}.tar.gz`);
  await tool(
    "tar",
    [
      "-czf",
      tarball,
      "--sort=name",
      "--owner=0",
      "--group=0",
      "--numeric-owner",
      "--mtime=1970-01-01",
      "-C",
      dir,
      ".",
    ],
    outDir,
  );
  return { dir, tarball };
}
