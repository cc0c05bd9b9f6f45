/**
 * Section 3: memory and speed of a clone from large samples. Each measurement runs in a fresh
 * process so peaks never mix: the real dynamic-provider process (driven over gRPC) for the
 * provider, a small undici script for the plain upload. This process samples the child's
 * resident memory from /proc every 20 ms and also reads the kernel's high-water mark (VmHWM),
 * reset just before the first upload where the kernel allows it, so a peak between samples is not
 * lost. A process may upload the same files several times: memory growth counts every upload from
 * the one baseline, speed counts the uploads after the first (the first pays for cold code).
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { resourceUrn } from "../support/serialized-provider";
import { track } from "./children";
import { startEmulatorProcess, stopChild, type EmulatorProcess } from "./emulator-process";
import { configuredProvider, engineCheck, type BenchProject } from "./fixture";
import { touch, voiceInputs, writeSample } from "./resources";
import { median, round, since } from "./stats";

const MIB = 2 ** 20;
const SAMPLE_INTERVAL_MS = 20;

/**
 * `provider` hashes the samples while uploading them, as a create does; `provider, hashed
 * before` has them hashed (by a diff) before the create, which then only uploads.
 */
export type UploadArm = "provider" | "provider, hashed before" | "undici";
export const uploadArms: readonly UploadArm[] = ["undici", "provider", "provider, hashed before"];

export interface UploadSet {
  readonly files: number;
  readonly fileMb: number;
  /** Fresh processes per arm. */
  readonly rounds: number;
  /** Uploads per process; with more than one, speed comes from all but the first. */
  readonly uploadsPerProcess: number;
}

export interface UploadRun {
  readonly arm: UploadArm;
  readonly megabytes: number;
  /** Seconds of each upload in the process, the first one cold. */
  readonly seconds: number[];
  /** Of the uploads that count for speed. */
  readonly mbPerSecond: number;
  /** Peak resident memory over the baseline taken just before the first upload, MiB. */
  readonly growthMb: number;
  readonly baselineMb: number;
}

export interface UploadSummary {
  readonly arm: UploadArm;
  readonly megabytes: number;
  readonly runs: number;
  readonly medianMbPerSecond: number;
  readonly bestMbPerSecond: number;
  /** The largest growth of all runs. */
  readonly maxGrowthMb: number;
  /** Median speed over the plain undici median, same size. */
  readonly throughputRatio: number;
  /** Best over best: less sensitive to other load on a shared machine. */
  readonly bestRatio: number;
}

function procStatusMb(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/** Resets the kernel's peak RSS of `pid` to its current RSS (Linux >= 4.0, same user). */
function resetHighWaterMark(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** Times each upload and samples the resident memory of `pid` from before the first. */
async function measureUploadsOf(
  pid: number,
  uploads: number,
  upload: (index: number) => Promise<void>,
  between: () => Promise<void>,
): Promise<{ seconds: number[]; growthMb: number; baselineMb: number }> {
  const baselineMb = procStatusMb(pid, "VmRSS") ?? Number.NaN;
  const hwmReset = resetHighWaterMark(pid);
  let peak = baselineMb;
  const sampler = setInterval(() => {
    peak = Math.max(peak, procStatusMb(pid, "VmRSS") ?? peak);
  }, SAMPLE_INTERVAL_MS);
  const seconds: number[] = [];
  try {
    for (let index = 0; index < uploads; index++) {
      if (index > 0) await between();
      const started = performance.now();
      await upload(index);
      seconds.push(since(started) / 1000);
    }
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, procStatusMb(pid, "VmRSS") ?? peak);
  if (hwmReset) peak = Math.max(peak, procStatusMb(pid, "VmHWM") ?? peak);
  return { seconds, growthMb: peak - baselineMb, baselineMb };
}

/** Sample files under a cache directory, written once and reused by later runs. */
async function sampleSet(files: number, fileMb: number): Promise<string[]> {
  const dir = join(tmpdir(), "pulumi-voice-platform-bench-samples", `${files}x${fileMb}MiB`);
  await mkdir(dir, { recursive: true });
  const bytes = Math.round(fileMb * MIB);
  return Array.from({ length: files }, (_, index) => {
    const path = join(dir, `sample-${index}.wav`);
    if (!existsSync(path) || statSync(path).size !== bytes) writeSample(path, bytes);
    return path;
  });
}

const settle = () => new Promise((done) => setTimeout(done, 300));

type Measured = { seconds: number[]; growthMb: number; baselineMb: number };

async function providerRun(
  project: BenchProject,
  emulator: EmulatorProcess,
  files: string[],
  uploads: number,
  hashFirst: boolean,
): Promise<Measured> {
  const provider = await configuredProvider(project, emulator);
  try {
    const warmUp = await engineCheck(
      provider,
      project,
      "Voice",
      "warm-up",
      voiceInputs(0, [project.smallSample]),
    );
    await provider.create(resourceUrn("Voice", "warm-up"), warmUp);
    const urn = resourceUrn("Voice", "upload");
    const news = await engineCheck(provider, project, "Voice", "upload", voiceInputs(1, files));
    const prepare = async () => {
      if (hashFirst) await provider.diff("none", urn, {}, news);
      else await touch(files);
    };
    await prepare();
    await settle();
    return await measureUploadsOf(
      provider.pid,
      uploads,
      async () => {
        await provider.create(urn, news);
      },
      prepare,
    );
  } finally {
    await provider.close();
  }
}

function message(child: ChildProcess, kind: string): Promise<void> {
  return new Promise((resolveMessage, reject) => {
    const onExit = (code: number | null) => reject(new Error(`plain upload exited with ${code}`));
    const onMessage = (payload: { kind?: string; message?: string }) => {
      if (payload.kind !== kind && payload.kind !== "failed") return;
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (payload.kind === kind) resolveMessage();
      else reject(new Error(`plain upload failed: ${payload.message}`));
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

async function undiciRun(
  project: BenchProject,
  emulator: EmulatorProcess,
  files: string[],
  uploads: number,
): Promise<Measured> {
  const job = {
    baseUrl: emulator.baseUrl,
    apiKey: emulator.apiKey,
    warmUp: join(project.dir, project.smallSample),
    files,
  };
  const child = fork(resolve(__dirname, "upload-direct.ts"), [JSON.stringify(job)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  child.once("exit", track(child.pid!));
  try {
    await message(child, "ready");
    await settle();
    return await measureUploadsOf(
      child.pid!,
      uploads,
      async () => {
        const done = message(child, "done");
        child.send({ kind: "go" });
        await done;
      },
      async () => undefined,
    );
  } finally {
    await stopChild(child);
  }
}

export async function measureUploads(
  project: BenchProject,
  sets: readonly UploadSet[],
): Promise<{ runs: UploadRun[]; summaries: UploadSummary[] }> {
  const emulator = await startEmulatorProcess();
  const runs: UploadRun[] = [];
  try {
    for (const { files, fileMb, rounds, uploadsPerProcess } of sets) {
      const paths = await sampleSet(files, fileMb);
      const megabytes = files * fileMb;
      for (let pass = 0; pass < rounds; pass++) {
        // The order rotates each round, so no arm always follows another.
        const order = uploadArms.map((_, i) => uploadArms[(i + pass) % uploadArms.length]!);
        for (const arm of order) {
          const result =
            arm === "undici"
              ? await undiciRun(project, emulator, paths, uploadsPerProcess)
              : await providerRun(project, emulator, paths, uploadsPerProcess, arm !== "provider");
          const counted = result.seconds.length > 1 ? result.seconds.slice(1) : result.seconds;
          runs.push({
            arm,
            megabytes,
            seconds: result.seconds.map((value) => round(value)),
            mbPerSecond: round(megabytes / median(counted), 1),
            growthMb: round(result.growthMb, 1),
            baselineMb: round(result.baselineMb, 1),
          });
          // The emulator keeps a log entry and a voice per upload; nothing else accumulates.
          await emulator.reset();
        }
      }
    }
  } finally {
    await emulator.stop();
  }
  return { runs, summaries: summarize(runs) };
}

function summarize(runs: readonly UploadRun[]): UploadSummary[] {
  const summaries: UploadSummary[] = [];
  for (const megabytes of [...new Set(runs.map((run) => run.megabytes))]) {
    const speeds = (arm: UploadArm) =>
      runs
        .filter((run) => run.arm === arm && run.megabytes === megabytes)
        .map((r) => r.mbPerSecond);
    for (const arm of uploadArms) {
      const ofArm = runs.filter((run) => run.arm === arm && run.megabytes === megabytes);
      summaries.push({
        arm,
        megabytes,
        runs: ofArm.length,
        medianMbPerSecond: round(median(speeds(arm)), 1),
        bestMbPerSecond: Math.max(...speeds(arm)),
        maxGrowthMb: round(Math.max(...ofArm.map((run) => run.growthMb)), 1),
        throughputRatio: round(median(speeds(arm)) / median(speeds("undici"))),
        bestRatio: round(Math.max(...speeds(arm)) / Math.max(...speeds("undici"))),
      });
    }
  }
  return summaries;
}
