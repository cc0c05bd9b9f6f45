/**
 * Memory check for streaming uploads (not a jest test): starts the emulator in a child process,
 * clones one voice from 5 × 100 MB samples and reports the emulator's resident memory.
 *
 *   npx tsx test/bench/emulator-upload-memory.ts [--files 5] [--mb 100]
 */
import { spawn } from "node:child_process";
import { openAsBlob } from "node:fs";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { FormData, request } from "undici";
import type { Voice } from "../../provider/emulator";

const MIB = 1024 * 1024;
const API_KEY = "memory-key";

async function residentMib(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
  if (kib === undefined) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(kib) / 1024;
}

function startEmulatorProcess() {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      resolve(__dirname, "..", "..", "provider", "cli", "main.ts"),
      "emulator",
      "--port",
      "0",
      "--api-key",
      API_KEY,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const baseUrl = new Promise<string>((resolveUrl, reject) => {
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const [first, second] = stdout.split("\n");
      // VOICEPLATFORM_BASE_URL=<url>, then the campaigns line.
      if (first !== undefined && second !== undefined)
        resolveUrl(first.slice(first.indexOf("=") + 1));
    });
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  return { child, baseUrl };
}

/** Sparse files: instant to create, and the emulator still reads and hashes every byte. */
async function createSamples(directory: string, count: number, megabytes: number) {
  const paths = [];
  for (let index = 0; index < count; index += 1) {
    const path = join(directory, `sample-${index}.wav`);
    const handle = await open(path, "w");
    await handle.write("RIFF", 0);
    await handle.truncate(megabytes * MIB);
    await handle.close();
    paths.push(path);
  }
  return paths;
}

async function clone(baseUrl: string, paths: string[]): Promise<Voice> {
  const form = new FormData();
  form.append("name", "Memory check");
  for (const path of paths) form.append("files", await openAsBlob(path), path.split("/").pop());
  const response = await request(`${baseUrl}/voices/voice-clone`, {
    method: "POST",
    headers: { authorization: `Bearer ${API_KEY}` },
    body: form,
  });
  const body = (await response.body.json()) as Voice[];
  if (response.statusCode !== 200 || body[0] === undefined) {
    throw new Error(`clone failed: ${response.statusCode} ${JSON.stringify(body)}`);
  }
  return body[0];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { files: { type: "string", default: "5" }, mb: { type: "string", default: "100" } },
  });
  const fileCount = Number(values.files);
  const megabytes = Number(values.mb);
  const directory = await mkdtemp(join(tmpdir(), "emulator-memory-"));
  const { child, baseUrl: baseUrlPromise } = startEmulatorProcess();
  try {
    const baseUrl = await baseUrlPromise;
    const pid = child.pid;
    if (pid === undefined) throw new Error("emulator has no pid");
    const paths = await createSamples(directory, fileCount, megabytes);
    const warmUp = await createSamples(await mkdtemp(join(directory, "warm-")), 1, 1);
    await clone(baseUrl, warmUp);
    await new Promise((settle) => setTimeout(settle, 500));

    const baseline = await residentMib(pid, "VmRSS");
    let peak = baseline;
    const sampler = setInterval(() => {
      residentMib(pid, "VmRSS").then(
        (rss) => (peak = Math.max(peak, rss)),
        () => undefined,
      );
    }, 20);
    const started = performance.now();
    const voice = await clone(baseUrl, paths);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, await residentMib(pid, "VmRSS"));

    const uploadedMib = voice.samples.reduce((sum, sample) => sum + sample.size, 0) / MIB;
    if (uploadedMib !== fileCount * megabytes) {
      throw new Error(`emulator saw ${uploadedMib} MiB, expected ${fileCount * megabytes}`);
    }
    const format = (mib: number) => `${mib.toFixed(1)} MB`;
    console.log(
      `uploaded:  ${fileCount} × ${megabytes} MiB = ${uploadedMib} MiB in ${seconds.toFixed(1)} s`,
    );
    console.log(`baseline:  ${format(baseline)} RSS`);
    console.log(`peak:      ${format(peak)} RSS (sampled every 20 ms)`);
    console.log(`growth:    ${format(peak - baseline)}`);
    console.log(`VmHWM:     ${format(await residentMib(pid, "VmHWM"))} (lifetime high-water mark)`);
  } finally {
    child.kill("SIGTERM");
    await rm(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
