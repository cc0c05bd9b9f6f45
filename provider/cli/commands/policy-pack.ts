/**
 * `pulumi-voice-platform policy-pack DIR`: writes the platform's policy pack (the folder the
 * package carries as dist/provider/policy/pack) into a folder of the user's, for a project whose
 * own node_modules do not hold it (a YAML, Python or Go program, a CI job's checkout). Inside a
 * Node.js project that has pulumi-voice-platform and @pulumi/policy installed it runs as written;
 * elsewhere `npm install` in DIR brings its three dependencies.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { resolve } from "node:path";
import { packFiles, writePackFolder } from "../../policy/pack-folder";
import { EXIT, type CommandResult } from "./command-result";

const PACK_FILES = Object.keys(packFiles("0.0.0"));

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
  await writePackFolder(target);
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
