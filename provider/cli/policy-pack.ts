/**
 * `pulumi-voice-platform policy-pack DIR`: writes the platform's policy pack (the package's
 * provider/policy/pack) into a folder of the user's, for a project whose own node_modules do not
 * hold it (a YAML, Python or Go program, a CI job's checkout). Inside a Node.js project that has
 * pulumi-voice-platform and @pulumi/policy installed it runs as written; elsewhere `npm install`
 * in DIR brings its three dependencies.
 */
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { EXIT, type CommandResult } from "./command-result";

const PACK_FILES = ["PulumiPolicy.yaml", "index.js", "package.json"];

/** The package's folder: the nearest one above this file with a package.json. */
function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

export async function writePolicyPack(command: {
  dir: string;
  cwd?: string;
}): Promise<CommandResult> {
  const target = resolve(command.cwd ?? process.cwd(), command.dir);
  const present = existsSync(target) ? await readdir(target) : [];
  const foreign = present.filter((name) => !PACK_FILES.includes(name) && name !== "node_modules");
  if (foreign.length > 0) {
    return {
      exitCode: EXIT.refused,
      text: `refused, nothing was written: ${target} holds ${foreign.slice(0, 3).join(", ")}${foreign.length > 3 ? ", …" : ""}; give a new or empty folder`,
    };
  }
  const source = join(packageRoot(), "provider", "policy", "pack");
  await mkdir(target, { recursive: true });
  for (const file of PACK_FILES) await copyFile(join(source, file), join(target, file));
  return {
    exitCode: EXIT.clean,
    text: [
      `Wrote the voice-platform policy pack to ${target}.`,
      "Where pulumi-voice-platform and @pulumi/policy cannot be found from that folder upwards, install them there:",
      `  (cd ${JSON.stringify(target)} && npm install)`,
      "Then check a program with it:",
      `  pulumi preview --policy-pack ${JSON.stringify(target)}`,
    ].join("\n"),
  };
}
