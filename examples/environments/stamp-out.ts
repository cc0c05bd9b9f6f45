/**
 * Stamps the environments program out once per sub-organization, in parallel, with the
 * Automation API: one stack named after each sub-organization, one progress line per stack, a summary table at the
 * end. Exits non-zero if any stack failed.
 *
 *   VOICEPLATFORM_API_KEY=… SIP_PASSWORD=… npx tsx stamp-out.ts --base-url https://… \
 *     --campaigns-base-url https://… sub-a sub-b
 *
 * Options: --parallel N (default 4), --destroy, --backend URL (default: a file backend in
 * .stamp-out/ beside this file; PULUMI_BACKEND_URL wins), --work-dir DIR (the program to stamp
 * out; default this directory; each stack's Pulumi.<stack>.yaml is written there). The platform's
 * addresses may come from VOICEPLATFORM_BASE_URL and VOICEPLATFORM_CAMPAIGNS_BASE_URL instead.
 * The `pulumi` on PATH runs every stack.
 *
 * Each stack is checked with `pulumi-voice-platform preflight` first: a stack that an earlier,
 * killed run left with interrupted creates is not deployed (a plain `up` would create those
 * objects again); its lines say what to look for on the platform and the command that records them.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";

interface Outcome {
  readonly subOrganizationId: string;
  readonly stack: string;
  readonly result: "succeeded" | "failed";
  readonly changes: string;
  readonly seconds: number;
  readonly detail: string;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    parallel: { type: "string", default: "4" },
    destroy: { type: "boolean", default: false },
    backend: { type: "string" },
    "work-dir": { type: "string" },
    "base-url": { type: "string" },
    "campaigns-base-url": { type: "string" },
  },
});

const projectDir = resolve(values["work-dir"] ?? __dirname);

async function main(): Promise<void> {
  const subOrganizations = positionals;
  if (subOrganizations.length === 0) throw new Error("name at least one sub-organization id");
  const parallel = Math.max(1, Number(values.parallel));
  const backend = process.env.PULUMI_BACKEND_URL ?? values.backend ?? fileBackend();
  const pulumiCommand = await PulumiCommand.get({ skipVersionCheck: true });
  const started = Date.now();
  const queue = [...subOrganizations];
  const outcomes: Outcome[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      outcomes.push(await deploy(next, { backend, pulumiCommand }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, subOrganizations.length) }, worker));
  printSummary(outcomes, (Date.now() - started) / 1000);
  if (outcomes.some((outcome) => outcome.result === "failed")) process.exitCode = 1;
}

function fileBackend(): string {
  const dir = join(projectDir, ".stamp-out");
  mkdirSync(dir, { recursive: true });
  return `file://${dir}`;
}

async function deploy(
  subOrganizationId: string,
  context: { backend: string; pulumiCommand: PulumiCommand },
): Promise<Outcome> {
  const stackName = subOrganizationId.replace(/[^A-Za-z0-9_.-]/g, "-");
  const started = Date.now();
  const line = (text: string) => process.stdout.write(`[${stackName}] ${text}\n`);
  line(values.destroy ? "destroying…" : "deploying…");
  try {
    const envVars = {
      ...definedEnvironment(),
      PULUMI_BACKEND_URL: context.backend,
      PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "stamp-out",
      SIP_PASSWORD: process.env.SIP_PASSWORD ?? `${subOrganizationId}-sip-password`,
    };
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName, workDir: projectDir },
      { pulumiCommand: context.pulumiCommand, envVars },
    );
    await configure(stack, subOrganizationId);
    await preflight(stackName, envVars, line);
    if (!values.destroy) await stack.preview();
    // stack.up() skips the preview phase, which is fine because the preview just above ran it.
    const result = values.destroy ? await stack.destroy() : await stack.up();
    const changes = Object.entries(result.summary.resourceChanges ?? {})
      .map(([kind, count]) => `${count} ${kind}`)
      .join(", ");
    const seconds = (Date.now() - started) / 1000;
    line(`${result.summary.result} in ${seconds.toFixed(1)} s (${changes || "no changes"})`);
    return {
      subOrganizationId,
      stack: stackName,
      result: "succeeded",
      changes,
      seconds,
      detail: "",
    };
  } catch (error) {
    const seconds = (Date.now() - started) / 1000;
    const detail = firstErrorLine(error);
    line(`failed in ${seconds.toFixed(1)} s: ${detail}`);
    return { subOrganizationId, stack: stackName, result: "failed", changes: "", seconds, detail };
  }
}

/**
 * `npx pulumi-voice-platform preflight` for one stack, through the package's own bin. Throws,
 * after printing its report, when the stack holds interrupted creates or an update holds its lock.
 */
async function preflight(
  stackName: string,
  env: Record<string, string>,
  line: (text: string) => void,
): Promise<void> {
  const manifestPath = require.resolve("pulumi-voice-platform/package.json", {
    paths: [projectDir],
  });
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    bin: Record<string, string>;
  };
  const bin = join(dirname(manifestPath), manifest.bin["pulumi-voice-platform"]!);
  const args = [bin, "preflight", "--stack", stackName, "--cwd", projectDir];
  try {
    await promisify(execFile)(process.execPath, args, { env });
    line("preflight: no interrupted operations");
  } catch (error) {
    const { stdout, stderr, code } = error as { stdout?: string; stderr?: string; code?: number };
    for (const text of `${stdout ?? ""}${stderr ?? ""}`.trimEnd().split("\n")) line(text);
    // preflight's exit codes (`npx pulumi-voice-platform --help`): 1 interrupted operations of a
    // stopped run, 3 an update in progress holds the stack, 5 the backend could not be read.
    throw new Error(
      code === 1
        ? "error: preflight found interrupted operations; settle them with the recover command above"
        : code === 3
          ? "error: the stack is locked by an update in progress; wait for it to finish (do not run recover)"
          : `error: preflight could not check the stack (exit ${String(code)}); see its message above`,
    );
  }
}

async function configure(stack: Stack, subOrganizationId: string) {
  const baseUrl = values["base-url"] ?? process.env.VOICEPLATFORM_BASE_URL;
  const campaignsBaseUrl =
    values["campaigns-base-url"] ?? process.env.VOICEPLATFORM_CAMPAIGNS_BASE_URL;
  if (!baseUrl || !campaignsBaseUrl) {
    throw new Error(
      "give --base-url and --campaigns-base-url (or VOICEPLATFORM_BASE_URL and VOICEPLATFORM_CAMPAIGNS_BASE_URL)",
    );
  }
  await stack.setAllConfig({
    "voiceplatform:baseUrl": { value: baseUrl },
    "voiceplatform:campaignsBaseUrl": { value: campaignsBaseUrl },
    "voiceplatform:subOrganizationId": { value: subOrganizationId },
    "voice-platform-environments:hookBaseUrl": {
      value: `https://hooks.example.com/${subOrganizationId}`,
    },
    "voice-platform-environments:campaignId": { value: "65a1f0c2e4b0a1b2c3d4e5f6" },
    "voice-platform-environments:gateways": {
      value: JSON.stringify([{ ipv4: "203.0.113.10", port: 5060 }]),
    },
  });
}

/**
 * The secrets reach the provider and the program through their environment, never a command
 * line: `config set --secret` (what setAllConfig runs) would show them to anyone who lists
 * processes. The provider reads VOICEPLATFORM_API_KEY as it is, the program SIP_PASSWORD.
 */
function definedEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
}

function firstErrorLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const meaningful = text.split("\n").find((l) => /error:/.test(l)) ?? text.split("\n")[0] ?? "";
  return meaningful.trim().slice(0, 200);
}

function printSummary(outcomes: Outcome[], seconds: number): void {
  const rows = [...outcomes].sort((a, b) => a.stack.localeCompare(b.stack));
  const header = ["stack", "result", "changes", "seconds"];
  const cells = rows.map((o) => [
    o.stack,
    o.result,
    o.changes || o.detail || "no changes",
    o.seconds.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const print = (row: string[]) =>
    process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")}\n`);
  process.stdout.write("\n");
  print(header);
  print(widths.map((w) => "-".repeat(w)));
  cells.forEach(print);
  const failed = rows.filter((o) => o.result === "failed").length;
  process.stdout.write(
    `\n${rows.length - failed} of ${rows.length} stacks succeeded in ${seconds.toFixed(1)} s\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `stamp-out failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});
