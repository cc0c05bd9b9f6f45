/**
 * A throwaway stack of a program in the bench project, run by the real Pulumi CLI with a file
 * backend against an emulator. Sections 4 (through the engine) and 6 (state size) use it.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { pulumiEnv } from "../pulumi-cli/locate";
import type { EmulatorProcess } from "./emulator-process";
import type { BenchProject } from "./fixture";

const run = promisify(execFile);

export interface PulumiStack {
  /** Runs `pulumi <args> --non-interactive` in the project; stdout on success. */
  pulumi(...args: string[]): Promise<string>;
  remove(): Promise<void>;
}

export async function pulumiStack(
  project: BenchProject,
  emulator: Pick<EmulatorProcess, "apiKey" | "baseUrl" | "campaignsBaseUrl">,
  programText: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<PulumiStack> {
  const scratch = await mkdtemp(join(tmpdir(), "bench-stack-"));
  await mkdir(join(scratch, "backend"));
  await mkdir(join(scratch, "home"));
  await writeFile(
    join(project.dir, "Pulumi.yaml"),
    "name: voice-platform-bench\nruntime: nodejs\n",
  );
  await writeFile(join(project.dir, "index.js"), programText);
  const env = pulumiEnv({
    ...process.env,
    PULUMI_BACKEND_URL: `file://${join(scratch, "backend")}`,
    PULUMI_HOME: join(scratch, "home"),
    PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
    ...extraEnv,
  });
  const pulumi = async (...args: string[]) => {
    try {
      const { stdout } = await run("pulumi", [...args, "--non-interactive"], {
        cwd: project.dir,
        env,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 600_000,
      });
      return stdout;
    } catch (caught) {
      const error = caught as Error & { stdout?: string; stderr?: string };
      throw new Error(
        `pulumi ${args[0]} failed: ${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`,
      );
    }
  };
  try {
    await pulumi("stack", "init", "bench");
    await pulumi("config", "set", "voiceplatform:baseUrl", emulator.baseUrl);
    await pulumi("config", "set", "voiceplatform:campaignsBaseUrl", emulator.campaignsBaseUrl);
    await pulumi("config", "set", "--secret", "voiceplatform:apiKey", emulator.apiKey);
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  // No destroy: the backend and the emulator holding the objects are thrown away.
  return { pulumi, remove: () => rm(scratch, { recursive: true, force: true }) };
}
