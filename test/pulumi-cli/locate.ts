/**
 * Finds a Pulumi CLI for tests and scripts. The version tests and CI use is a setting of its own,
 * `config.pulumiCli` in package.json, which `PULUMI_CLI_VERSION` overrides (install.sh reads the
 * same two). In order: with `PULUMI_CLI_VERSION` set, the build of that version and nothing else
 * (so CI and the compatibility lane test the version they name, whatever is on PATH); else a
 * `pulumi` on PATH that runs; else the build of the pinned version in the machine's toolchain
 * cache (<cache>/v<version>/bin, see install.sh).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export interface PulumiCli {
  /** Directory holding `pulumi` (and normally pulumi-language-nodejs and the dynamic-provider launcher). */
  binDir: string;
  /** Absolute path of the `pulumi` executable. */
  pulumi: string;
  /** `pulumi version` without the leading "v", e.g. "3.248.0". */
  version: string;
}

export const REPO_ROOT = path.resolve(__dirname, "..", "..");
const LAUNCHER = "pulumi-resource-pulumi-nodejs";

/** The Pulumi versions package.json's `config` names: what CI and the compatibility lane run. */
export interface PulumiVersionSettings {
  /** The CLI the tests and CI run on (`npm run pulumi:install` builds it). */
  pulumiCli?: string;
  /** The oldest CLI the README promises, run by `npm run test:compat`. */
  oldestPulumiCli?: string;
  /** The oldest @pulumi/pulumi the README promises, run by `npm run test:compat`. */
  oldestPulumiSdk?: string;
}

export function pulumiVersionSettings(): PulumiVersionSettings {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    config?: PulumiVersionSettings;
  };
  return manifest.config ?? {};
}

/** "v3.274.1" or " 3.274.1 " as "3.274.1"; anything else as undefined. */
function plainVersion(text: string | undefined): string | undefined {
  const version = text?.trim().replace(/^v/, "");
  return version !== undefined && /^\d+\.\d+\.\d+$/.test(version) ? version : undefined;
}

/**
 * `PULUMI_CLI_VERSION` (a run that asks for one CLI in particular), undefined when unset or
 * empty; anything but a version fails, as install.sh does.
 */
export function requestedCliVersion(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env.PULUMI_CLI_VERSION;
  if (given === undefined || given.trim() === "") return undefined;
  const version = plainVersion(given);
  if (version === undefined) {
    throw new Error(
      `PULUMI_CLI_VERSION must be a Pulumi CLI version such as 3.274.1 (got ${JSON.stringify(given)}).`,
    );
  }
  return version;
}

/**
 * The Pulumi CLI version the tests use: `PULUMI_CLI_VERSION`, else package.json's
 * `config.pulumiCli`. install.sh builds the same one.
 */
export function testedCliVersion(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return requestedCliVersion(env) ?? plainVersion(pulumiVersionSettings().pulumiCli);
}

/**
 * The @pulumi/pulumi version pinned in package-lock.json, e.g. "3.248.0": the SDK of the repo's
 * own programs and of the Python and Go SDKs' pins; the CLI's version is `testedCliVersion()`.
 */
export function lockedPulumiVersion(): string | undefined {
  try {
    const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as {
      packages?: Record<string, { version?: string }>;
    };
    return lock.packages?.["node_modules/@pulumi/pulumi"]?.version;
  } catch {
    return undefined;
  }
}

/**
 * bin directory of `npm run pulumi:install`'s build of a version, by default the tested one (it
 * may not exist): a toolchain cache outside the repository, shared by every clone on the
 * machine. The same rule as install.sh.
 */
export function repoBinDir(version = testedCliVersion()): string | undefined {
  if (!version) return undefined;
  const cacheRoot =
    process.env.VOICEPLATFORM_PULUMI_CLI_CACHE ||
    path.join(
      process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"),
      "pulumi-voice-platform",
      "pulumi-cli",
    );
  return path.join(cacheRoot, `v${version}`, "bin");
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function pathDirs(envPath: string | undefined): string[] {
  return (envPath ?? "").split(path.delimiter).filter((d) => d !== "");
}

function findOnPath(name: string, envPath: string | undefined): string | undefined {
  for (const dir of pathDirs(envPath)) {
    const candidate = path.resolve(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function probe(pulumi: string): PulumiCli | undefined {
  try {
    const out = execFileSync(pulumi, ["version"], {
      encoding: "utf8",
      timeout: 20_000,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
    }).trim();
    const version = /^v?(\d+\.\d+\.\d+\S*)$/.exec(out)?.[1];
    return version ? { binDir: path.dirname(pulumi), pulumi, version } : undefined;
  } catch {
    return undefined;
  }
}

/** Only found CLIs are cached: one built a moment ago (by the demo, say) must be found next time. */
const cache = new Map<string, PulumiCli>();

/** The toolchain cache's build of `version`, when it is there and answers. */
function cachedBuild(version: string | undefined): PulumiCli | undefined {
  const bin = repoBinDir(version);
  return bin && isExecutable(path.join(bin, "pulumi"))
    ? probe(path.join(bin, "pulumi"))
    : undefined;
}

/**
 * With `PULUMI_CLI_VERSION` set, the toolchain cache's build of that version or undefined;
 * otherwise a `pulumi` on PATH that answers `pulumi version`, else the build of the pinned
 * version, else undefined. Cached per PATH and version (a probe runs `pulumi version`, ~0.1 s).
 */
export function locatePulumi(): PulumiCli | undefined {
  const requested = requestedCliVersion();
  const key = [requested, repoBinDir(), process.env.PATH].join("\u0000");
  const cached = cache.get(key);
  if (cached) return cached;
  let cli: PulumiCli | undefined;
  if (requested !== undefined) cli = cachedBuild(requested);
  else {
    const onPath = findOnPath("pulumi", process.env.PATH);
    cli = (onPath ? probe(onPath) : undefined) ?? cachedBuild(testedCliVersion());
  }
  if (cli) cache.set(key, cli);
  return cli;
}

/**
 * Environment for running the located CLI (through the Automation API or directly):
 * PATH with its binDir first (then the repo build's bin dir when no pulumi-resource-pulumi-nodejs
 * launcher is found in binDir or on PATH), PULUMI_SKIP_UPDATE_CHECK=true and
 * PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true (no network for plugin downloads) unless `base`
 * sets them. PULUMI_HOME, PULUMI_BACKEND_URL and the passphrase are left as `base` has them.
 * `base` defaults to process.env; a `base` without PATH gets process.env.PATH after binDir.
 * Without a located CLI only the two variables are added.
 */
export function pulumiEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  env.PULUMI_SKIP_UPDATE_CHECK ??= "true";
  env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION ??= "true";
  const cli = locatePulumi();
  if (!cli) return env;

  const front = [cli.binDir];
  const basePath = base.PATH ?? process.env.PATH;
  const rest = pathDirs(basePath).filter((d) => path.resolve(d) !== cli.binDir);
  if (!isExecutable(path.join(cli.binDir, LAUNCHER)) && !findOnPath(LAUNCHER, basePath)) {
    const repoBin = repoBinDir();
    if (repoBin && isExecutable(path.join(repoBin, LAUNCHER))) front.push(repoBin);
  }
  env.PATH = [...front, ...rest].join(path.delimiter);
  return env;
}
