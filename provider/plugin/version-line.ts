/**
 * What `pulumi-resource-voiceplatform --version` prints for the plugin process itself: its
 * version (the release's, the one GetPluginInfo answers, so `pulumi plugin ls` and
 * `pulumi about` show the same) and what runs it: a single executable, or a script on the
 * Node.js found on PATH.
 */
import { basename } from "node:path";
import { packageVersion } from "../schema/package-schema";

/** Whether this process is a Node.js single executable (node:sea exists from Node.js 20.12). */
function isSingleExecutable(): boolean {
  try {
    return (require("node:sea") as { isSea(): boolean }).isSea();
  } catch {
    return false;
  }
}

export function versionLine(): string {
  const single = isSingleExecutable();
  const file = single ? process.execPath : (process.argv[1] ?? "pulumi-resource-voiceplatform");
  const name = basename(file).replace(/\.(exe|js)$/, "");
  const runtime = single
    ? `a single executable of Node.js ${process.versions.node}`
    : `a script on Node.js ${process.version} (${process.execPath})`;
  return `${name} ${packageVersion()}: ${runtime}\n`;
}
