/**
 * The test tools `npm run tools:install` puts in the toolchain cache (test/tools/install.sh):
 * moto's S3 server, Azurite's Blob emulator, actionlint, and the registry stand-ins verdaccio (npm)
 * and pypiserver (PyPI). Each is found on PATH first, then in the
 * cache at the version the install script pins; undefined when neither has it.
 */
import { accessSync, constants, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { runToEnd } from "./command-result";

const INSTALL_SCRIPT = join(__dirname, "..", "tools", "install.sh");

export type TestTool = "moto" | "azurite" | "actionlint" | "verdaccio" | "pypiserver";

/** `npm run tools:install -- <tool>`, and what else installs it. */
export const INSTALL_HINT: Record<TestTool, string> = {
  moto: "run `npm run tools:install -- moto` (or `pip install 'moto[server]'`, which puts moto_server on PATH)",
  azurite:
    "run `npm run tools:install -- azurite` (or `npm install -g azurite`, which puts azurite-blob on PATH)",
  actionlint:
    "run `npm run tools:install -- actionlint` (builds it with Go from the module proxy into the toolchain cache)",
  verdaccio: "run `npm run tools:install -- verdaccio` (npm installs it into the toolchain cache)",
  pypiserver:
    "run `npm run tools:install -- pypiserver` (pip installs it with passlib into a virtualenv in the toolchain cache)",
};

/** The version install.sh pins for a tool. */
export function pinnedVersion(tool: TestTool): string {
  const variable = `${tool.toUpperCase()}_VERSION`;
  const match = new RegExp(`^${variable}=(\\S+)$`, "m").exec(readFileSync(INSTALL_SCRIPT, "utf8"));
  if (match === null) throw new Error(`${INSTALL_SCRIPT} pins no ${variable}`);
  return match[1]!;
}

export function toolCache(): string {
  return (
    process.env.VOICEPLATFORM_TOOL_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-voice-platform")
  );
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const COMMANDS: Record<TestTool, { name: string; inCache: (dir: string) => string }> = {
  moto: { name: "moto_server", inCache: (dir) => join(dir, "bin", "moto_server") },
  azurite: {
    name: "azurite-blob",
    inCache: (dir) => join(dir, "node_modules", ".bin", "azurite-blob"),
  },
  actionlint: { name: "actionlint", inCache: (dir) => join(dir, "actionlint") },
  verdaccio: {
    name: "verdaccio",
    inCache: (dir) => join(dir, "node_modules", ".bin", "verdaccio"),
  },
  pypiserver: { name: "pypi-server", inCache: (dir) => join(dir, "bin", "pypi-server") },
};

/** The tool's executable: on PATH, else in the cache; undefined when not installed. */
export function locateTool(tool: TestTool): string | undefined {
  const { name, inCache } = COMMANDS[tool];
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir !== "" && executable(join(dir, name))) return join(dir, name);
  }
  const cached = inCache(join(toolCache(), tool, `v${pinnedVersion(tool)}`));
  return executable(cached) ? cached : undefined;
}

/** The message a suite skips (or, under CI, fails) with when the tool is missing. */
export function toolMissing(tool: TestTool): string {
  return `${COMMANDS[tool].name} was not found on PATH or in ${toolCache()}: ${INSTALL_HINT[tool]}.`;
}

/**
 * jest's `describe` when every tool is installed; otherwise the suite is skipped with the install
 * command, or, under CI (where .ci/run installs them), one failing test names what is missing.
 */
export function describeWithTools(
  tools: readonly TestTool[],
  title: string,
  body: () => void,
): void {
  const missing = tools.filter((tool) => locateTool(tool) === undefined).map(toolMissing);
  if (missing.length === 0) {
    describe(title, body);
    return;
  }
  const message = `${title}: ${missing.join(" ")}`;
  if (process.env.CI) {
    test(`needs: ${message}`, () => {
      throw new Error(message);
    });
  } else {
    console.warn(`Skipping: ${message}`);
    describe.skip(title, body);
  }
}

/** actionlint's exit code and findings for a workflow file; `flags` before the file. */
export async function actionlint(
  file: string,
  flags: readonly string[] = [],
): Promise<{ code: number; findings: string }> {
  const { code, stdout } = await runToEnd(locateTool("actionlint")!, [...flags, "-no-color", file]);
  return { code, findings: stdout };
}
