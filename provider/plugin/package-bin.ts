/**
 * What the package's `pulumi-resource-voiceplatform` (bin/, the Node.js script npm links) does:
 * runs the native package that fits (native-packages.ts), else the bundled plugin on this
 * Node.js, saying why on stderr (the engine logs a plugin's stderr: `pulumi up --debug` shows it)
 * and in `--version`.
 *
 * On Linux and macOS the script, run from the package itself, first puts a symbolic link to the
 * native launcher in its own place (as esbuild's installer puts its binary in place of its
 * script, here on first use rather than at install: npm runs no install scripts of dependencies
 * unless allowed). Every later start runs the launcher with no Node.js before it, as an archive
 * does: what makes the engine's one-process-per-provider cheap (the launcher shares one server).
 * Where the link cannot be made (a read-only install), the script starts the launcher every time.
 */
import { spawn } from "node:child_process";
import { readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { runWithCodeCache } from "./code-cache";
import { nativePlugin, type PluginChoice } from "./native-packages";

const NAME = "pulumi-resource-voiceplatform";

export interface PackageBin {
  /** The script being run (`__filename` of bin/pulumi-resource-voiceplatform). */
  readonly script: string;
  /** The package's folder, found beside the script or from the program's folder. */
  readonly packageDir: string;
  /** The bundled plugin, for the Node.js fallback. */
  readonly bundle: string;
  readonly args: readonly string[];
}

function packageVersion(packageDir: string): string {
  return (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string })
    .version;
}

/** The one line `--version` prints when the plugin runs on this Node.js. */
export function fallbackVersionLine(version: string, reason: string): string {
  return `${NAME} ${version}: the bundled plugin on Node.js ${process.version} (no native executable: ${reason})\n`;
}

/** Whether `script` is the package's own bin file, not a copy elsewhere. */
function isPackageScript(script: string, packageDir: string): boolean {
  const own = join(packageDir, "provider", "plugin", "bin", NAME);
  try {
    return realpathSync(script) === realpathSync(own);
  } catch {
    return false;
  }
}

/**
 * Replaces `script` with a relative symbolic link to `executable`, atomically (a link made beside
 * it, renamed over it). Returns why it could not, or undefined.
 */
export function linkInPlace(script: string, executable: string): string | undefined {
  const real = realpathSync(script);
  const temporary = `${real}.${process.pid}.link`;
  try {
    symlinkSync(relative(dirname(real), realpathSync(executable)), temporary);
    renameSync(temporary, real);
    return undefined;
  } catch (error) {
    rmSync(temporary, { force: true });
    return (error as Error).message;
  }
}

/** Runs `executable` with `args` as this process would run: its exit, its signals. */
function runNative(executable: string, args: readonly string[]): void {
  const child = spawn(executable, args, { stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("error", (error) => {
    process.stderr.write(`${NAME}: cannot run ${executable}: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal !== null) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

/** The package's bin: the native executable that fits, else the bundled plugin on Node.js. */
export function runPackageBin(bin: PackageBin): void {
  const version = packageVersion(bin.packageDir);
  const choice: PluginChoice = nativePlugin(bin.packageDir, version);
  if (choice.kind === "native") {
    if (process.platform !== "win32" && isPackageScript(bin.script, bin.packageDir)) {
      const failed = linkInPlace(bin.script, choice.executable);
      if (failed !== undefined) {
        process.stderr.write(
          `${NAME}: starting ${choice.packageName} through Node.js, since it could not be ` +
            `linked in place of ${bin.script} (${failed})\n`,
        );
      }
    }
    runNative(choice.executable, bin.args);
    return;
  }
  if (bin.args[0] === "--version") {
    process.stdout.write(fallbackVersionLine(version, choice.reason));
    return;
  }
  process.stderr.write(`${NAME}: running on Node.js ${process.version}: ${choice.reason}\n`);
  runWithCodeCache(bin.bundle);
}
