/**
 * Self time of V8 CPU profiles (`node --cpu-prof`), by layer: which package or part of this one
 * the sampled functions belong to, plus V8's idle, GC and native ("program") time.
 * `tsx test/bench/cpu-profile.ts <dir or .cpuprofile>...` prints the table of the files given.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Native functions the CommonJS loader calls to find, read and compile modules. */
const moduleLoadingNatives = new Set([
  "stat",
  "open",
  "close",
  "read",
  "readFileUtf8",
  "internalModuleStat",
  "compileFunction",
  "compileFunctionForCJSLoader",
  "readPackageJSON",
  "getNearestParentPackageJSON",
]);

/** The layer a function belongs to, from its script's URL (or V8's pseudo-function name). */
export function layerOf(functionName: string, url: string): string {
  if (url === "") {
    if (functionName === "(idle)") return "idle";
    if (functionName === "(garbage collector)") return "GC";
    if (functionName === "(program)") return "V8/native (program)";
    if (moduleLoadingNatives.has(functionName)) return "node core: module loading";
    if (functionName === "writev" || functionName === "writeBuffer") return "socket writes";
    return "native functions";
  }
  // A single executable's snapshot script: the whole bundle, by the name Node gives it.
  if (url === "__node_anonymous_main") return "the bundle (gRPC, messages, zod, this package)";
  if (url.startsWith("node:internal/modules/")) return "node core: module loading";
  if (url.startsWith("node:")) return "node core: other (http2, streams, timers, ...)";
  const ours = /\/pulumi-voice-platform\/dist\/provider\/([^/]+)\//.exec(url);
  if (ours !== null) return `this package: provider/${ours[1]}`;
  if (url.includes("/@pulumi/pulumi/proto/")) return "protobuf messages (@pulumi/pulumi/proto)";
  const modules = url.split("/node_modules/");
  if (modules.length > 1) {
    const last = modules[modules.length - 1]!.split("/");
    return last[0]!.startsWith("@") ? `${last[0]}/${last[1]}` : last[0]!;
  }
  return "other";
}

export interface ProfileSummary {
  readonly files: number;
  /** Wall time the profiles span, milliseconds (summed over files). */
  readonly wallMs: number;
  /** Sampled self time per layer, milliseconds, largest first. */
  readonly layers: { layer: string; ms: number; share: number }[];
}

export function summarizeProfiles(paths: readonly string[]): ProfileSummary {
  const byLayer = new Map<string, number>();
  let wallMs = 0;
  for (const path of paths) {
    const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
    wallMs += (profile.endTime - profile.startTime) / 1000;
    const layerOfNode = new Map(
      profile.nodes.map((node) => [
        node.id,
        layerOf(node.callFrame.functionName, node.callFrame.url),
      ]),
    );
    profile.samples.forEach((id, index) => {
      const layer = layerOfNode.get(id) ?? "other";
      byLayer.set(layer, (byLayer.get(layer) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
    });
  }
  const total = [...byLayer.values()].reduce((sum, ms) => sum + ms, 0);
  const layers = [...byLayer]
    .map(([layer, ms]) => ({ layer, ms: Math.round(ms), share: ms / total }))
    .sort((a, b) => b.ms - a.ms);
  return { files: paths.length, wallMs: Math.round(wallMs), layers };
}

/** The table: each layer's self time, its share of all samples and of the non-idle ones. */
export function formatSummary(summary: ProfileSummary): string {
  const busy = summary.layers
    .filter((entry) => entry.layer !== "idle")
    .reduce((sum, entry) => sum + entry.ms, 0);
  const lines = [
    `${summary.files} profile(s), ${summary.wallMs} ms wall, ${busy} ms busy (not idle)` +
      (summary.files > 1 ? `; per profile ${Math.round(busy / summary.files)} ms busy` : ""),
    "| layer | self ms | share | share of busy |",
    "| --- | --- | --- | --- |",
  ];
  for (const { layer, ms, share } of summary.layers) {
    const ofBusy = layer === "idle" ? "—" : `${((ms / busy) * 100).toFixed(1)} %`;
    lines.push(`| ${layer} | ${ms} | ${(share * 100).toFixed(1)} % | ${ofBusy} |`);
  }
  return lines.join("\n");
}

export function profilesIn(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => join(path, name));
}

if (require.main === module) {
  const paths = process.argv.slice(2).flatMap(profilesIn);
  process.stdout.write(`${formatSummary(summarizeProfiles(paths))}\n`);
}
