/**
 * Stamps the environments program out once per sub-organization, in parallel, with the
 * Automation API: one stack named after each sub-organization, one progress line per stack, a summary table at the
 * end. Exits 1 if any stack failed, 2 if it refused to start.
 *
 *   PULUMI_BACKEND_URL=s3://… PULUMI_CONFIG_PASSPHRASE=… VOICEPLATFORM_API_KEY=… SIP_PASSWORD=… \
 *     npx tsx stamp-out.ts --base-url https://… --campaigns-base-url https://… sub-a sub-b
 *
 * It never runs on a default it made up: without a state backend (PULUMI_BACKEND_URL or
 * --backend), the stacks' passphrase (PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE;
 * or --secrets-provider, or Pulumi Cloud), the API key (VOICEPLATFORM_API_KEY) or the carriers'
 * password (SIP_PASSWORD) it stops before any stack is touched, naming what to set.
 *
 * Each stack is checked with `pulumi-voice-platform preflight` before anything else. A stack that
 * does not exist stops there unless --create-stacks is given (its first deployment): on any later
 * run a missing stack means the backend or the name changed, and a new stack would create every
 * object on the platform a second time. A stack that an earlier, killed run left with interrupted
 * creates is not deployed (a plain `up` would create those objects again); its lines say what to
 * look for on the platform and the command that records them. A preview that would replace an
 * object (which leaves the old one on the platform) stops the stack unless --allow-replace is given.
 *
 * Options: --parallel N (default 4), --destroy, --create-stacks, --allow-replace, --backend URL,
 * --secrets-provider URL (for the stacks it creates), --work-dir DIR (the program to stamp out;
 * default this directory; each stack's Pulumi.<stack>.yaml is written there). The platform's
 * addresses may come from VOICEPLATFORM_BASE_URL and VOICEPLATFORM_CAMPAIGNS_BASE_URL instead.
 * The `pulumi` on PATH runs every stack.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import {
  LocalWorkspace,
  PulumiCommand,
  type LocalWorkspaceOptions,
  type OpMap,
  type Stack,
} from "@pulumi/pulumi/automation";

interface Outcome {
  readonly subOrganizationId: string;
  readonly stack: string;
  readonly result: "succeeded" | "failed";
  readonly changes: string;
  readonly seconds: number;
  readonly detail: string;
}

/** Everything a run needs, checked before any stack is touched. */
interface Settings {
  readonly subOrganizations: readonly string[];
  readonly parallel: number;
  readonly backend: string;
  readonly secretsProvider: string | undefined;
  readonly baseUrl: string;
  readonly campaignsBaseUrl: string;
  readonly destroy: boolean;
  readonly createStacks: boolean;
  readonly allowReplace: boolean;
  readonly projectDir: string;
}

/** stamp-out's exit statuses: 1 a stack failed, 2 it refused to start. */
const EXIT = { stackFailed: 1, refused: 2 } as const;

/** Why stamp-out will not start: every reason at once, so one round of fixes is enough. */
interface Refusal {
  readonly reasons: readonly string[];
}

function commandLine(): ReturnType<typeof parseWith> | Refusal {
  try {
    return parseWith();
  } catch (error) {
    return { reasons: [(error as Error).message] };
  }
}

function parseWith() {
  return parseArgs({
    allowPositionals: true,
    options: {
      parallel: { type: "string", default: "4" },
      destroy: { type: "boolean", default: false },
      "create-stacks": { type: "boolean", default: false },
      "allow-replace": { type: "boolean", default: false },
      backend: { type: "string" },
      "secrets-provider": { type: "string" },
      "work-dir": { type: "string" },
      "base-url": { type: "string" },
      "campaigns-base-url": { type: "string" },
    },
  });
}

/** The value of an environment variable, with an empty one counted as not set. */
function given(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const value = env[name];
  return value === undefined || value === "" ? undefined : value;
}

function readSettings(env: NodeJS.ProcessEnv): Settings | Refusal {
  const parsed = commandLine();
  if ("reasons" in parsed) return parsed;
  const { values, positionals } = parsed;
  const reasons: string[] = [];
  const destroy = values.destroy === true;
  const backend = backendOf(values.backend, env, reasons);
  const secretsProvider = values["secrets-provider"] || undefined;
  secretsProblems(backend, secretsProvider, env, reasons);
  if (!destroy) deploySecretsProblems(env, reasons);
  const baseUrl = values["base-url"] || given("VOICEPLATFORM_BASE_URL", env);
  const campaignsBaseUrl =
    values["campaigns-base-url"] || given("VOICEPLATFORM_CAMPAIGNS_BASE_URL", env);
  if (baseUrl === undefined)
    reasons.push("no platform address: give --base-url (or set VOICEPLATFORM_BASE_URL)");
  if (campaignsBaseUrl === undefined) {
    reasons.push(
      "no campaigns address: give --campaigns-base-url (or set VOICEPLATFORM_CAMPAIGNS_BASE_URL)",
    );
  }
  const parallel = parallelOf(values.parallel, reasons);
  subOrganizationProblems(positionals, reasons);
  if (destroy && values["create-stacks"] === true)
    reasons.push(
      "--create-stacks and --destroy together: a stack is created to deploy it, never to destroy it",
    );
  if (reasons.length > 0) return { reasons };
  return {
    subOrganizations: positionals,
    parallel,
    backend: backend!,
    secretsProvider,
    baseUrl: baseUrl!,
    campaignsBaseUrl: campaignsBaseUrl!,
    destroy,
    createStacks: values["create-stacks"] === true,
    allowReplace: values["allow-replace"] === true,
    projectDir: resolve(values["work-dir"] ?? __dirname),
  };
}

/**
 * The backend every run of these stacks shares, given explicitly: a new backend holds no stacks,
 * so a guessed one makes "stack not found" mean "create everything again". Its URL is never
 * printed (a PostgreSQL URL may hold a password).
 */
function backendOf(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  reasons: string[],
): string | undefined {
  const fromEnv = given("PULUMI_BACKEND_URL", env);
  const fromFlag = flag || undefined;
  if (fromEnv !== undefined && fromFlag !== undefined && fromEnv !== fromFlag) {
    reasons.push("PULUMI_BACKEND_URL and --backend name different backends: give only one");
    return undefined;
  }
  const backend = fromFlag ?? fromEnv;
  if (backend === undefined) {
    reasons.push(
      "no state backend: set PULUMI_BACKEND_URL (or give --backend URL) to the backend every run of these stacks shares " +
        "(s3://<bucket>/<prefix>, azblob://<container>, postgres://<host>/<database>, https://api.pulumi.com; " +
        'for a trial on this machine, --backend "file://$PWD/.stamp-out", which git ignores)',
    );
  }
  return backend;
}

const isPulumiCloud = (backend: string) => /^https?:\/\//i.test(backend);

/**
 * The stacks' secrets (the SIP password in state) are encrypted with the passphrase, a secrets
 * provider, or by Pulumi Cloud; stamp-out never picks a passphrase itself.
 */
function secretsProblems(
  backend: string | undefined,
  secretsProvider: string | undefined,
  env: NodeJS.ProcessEnv,
  reasons: string[],
): void {
  // Pulumi takes a set PULUMI_CONFIG_PASSPHRASE, even an empty one, before the file.
  if (env.PULUMI_CONFIG_PASSPHRASE === "") {
    reasons.push(
      "PULUMI_CONFIG_PASSPHRASE is set but empty, which Pulumi would use as the passphrase: set the stacks' passphrase, or unset it",
    );
    return;
  }
  const file = given("PULUMI_CONFIG_PASSPHRASE_FILE", env);
  if (file !== undefined && !readableNonEmpty(file)) {
    reasons.push(`PULUMI_CONFIG_PASSPHRASE_FILE names ${file}, which is missing or empty`);
    return;
  }
  const passphrase = given("PULUMI_CONFIG_PASSPHRASE", env) ?? file;
  if (passphrase !== undefined || secretsProvider !== undefined) return;
  if (backend !== undefined && isPulumiCloud(backend)) return;
  reasons.push(
    "no passphrase for the stacks' secrets: set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to these stacks' passphrase, " +
      "or give --secrets-provider awskms://…, azurekeyvault://…, gcpkms://… or hashivault://… for the stacks it creates " +
      "(on Pulumi Cloud, an https:// backend, the service encrypts them)",
  );
}

function readableNonEmpty(file: string): boolean {
  try {
    return readFileSync(file, "utf8").trim() !== "";
  } catch {
    return false;
  }
}

/** What a deployment sends: the key, and the password every stack's carrier registers with. */
function deploySecretsProblems(env: NodeJS.ProcessEnv, reasons: string[]): void {
  if (given("VOICEPLATFORM_API_KEY", env) === undefined) {
    reasons.push(
      "no VOICEPLATFORM_API_KEY: export the parent organization's API key (it reaches the provider through the environment, never a command line)",
    );
  }
  if (given("SIP_PASSWORD", env) === undefined) {
    reasons.push(
      "no SIP_PASSWORD: export the carriers' registration password; stamp-out never makes one up, " +
        "since a different password replaces every carrier and leaves the old ones on the platform",
    );
  }
}

function parallelOf(text: string | undefined, reasons: string[]): number {
  const parallel = Number(text);
  if (Number.isInteger(parallel) && parallel >= 1 && parallel <= 64) return parallel;
  reasons.push(`--parallel is ${JSON.stringify(text)}: give a whole number from 1 to 64`);
  return 1;
}

function subOrganizationProblems(subOrganizations: readonly string[], reasons: string[]): void {
  if (subOrganizations.length === 0) {
    reasons.push("no sub-organization: name at least one after the options (… sub-a sub-b)");
    return;
  }
  const seen = new Map<string, string>();
  for (const sub of subOrganizations) {
    const stack = stackNameOf(sub);
    const earlier = seen.get(stack);
    if (earlier !== undefined) {
      reasons.push(
        `${JSON.stringify(earlier)} and ${JSON.stringify(sub)} both make stack ${stack}: name each once`,
      );
    }
    seen.set(stack, sub);
  }
}

const stackNameOf = (subOrganizationId: string) =>
  subOrganizationId.replace(/[^A-Za-z0-9_.-]/g, "-");

async function main(): Promise<void> {
  const settings = readSettings(process.env);
  if ("reasons" in settings) {
    const reasons = settings.reasons.map((reason) => `  - ${reason}`).join("\n");
    process.stderr.write(`stamp-out: refused to start; no stack was touched:\n${reasons}\n`);
    process.exitCode = EXIT.refused;
    return;
  }
  const pulumiCommand = await PulumiCommand.get({ skipVersionCheck: true });
  const started = Date.now();
  const queue = [...settings.subOrganizations];
  const outcomes: Outcome[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      outcomes.push(await runStack(next, settings, pulumiCommand));
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(settings.parallel, settings.subOrganizations.length) }, worker),
  );
  printSummary(outcomes, (Date.now() - started) / 1000);
  if (outcomes.some((outcome) => outcome.result === "failed")) process.exitCode = EXIT.stackFailed;
}

async function runStack(
  subOrganizationId: string,
  settings: Settings,
  pulumiCommand: PulumiCommand,
): Promise<Outcome> {
  const stackName = stackNameOf(subOrganizationId);
  const started = Date.now();
  const line = (text: string) => process.stdout.write(`[${stackName}] ${text}\n`);
  line(settings.destroy ? "destroying…" : "deploying…");
  try {
    const workspace: LocalWorkspaceOptions = {
      pulumiCommand,
      envVars: { ...definedEnvironment(), PULUMI_BACKEND_URL: settings.backend },
      ...(settings.secretsProvider === undefined
        ? {}
        : { secretsProvider: settings.secretsProvider }),
    };
    const found = await preflight(stackName, settings, workspace.envVars!, line);
    const args = { stackName, workDir: settings.projectDir };
    let stack: Stack;
    if (found === "missing") {
      stack = await LocalWorkspace.createStack(args, workspace);
      line("created the stack (--create-stacks)");
    } else {
      stack = await LocalWorkspace.selectStack(args, workspace);
    }
    await configure(stack, subOrganizationId, settings);
    const changes = settings.destroy
      ? changesOf((await stack.destroy()).summary.resourceChanges)
      : await previewThenUp(stack, settings);
    const seconds = (Date.now() - started) / 1000;
    line(`succeeded in ${seconds.toFixed(1)} s (${changes || "no changes"})`);
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

/** `pulumi up` after its preview: a replacement leaves the old object on the platform. */
async function previewThenUp(stack: Stack, settings: Settings): Promise<string> {
  const preview = await stack.preview();
  const replacements = replacementsIn(preview.changeSummary);
  if (replacements > 0 && !settings.allowReplace) {
    throw new Error(
      `error: the preview replaces ${replacements} object(s), and each replaced one stays on the platform; ` +
        `review \`pulumi preview --stack ${stack.name} --diff\`, then run again with --allow-replace`,
    );
  }
  // stack.up() skips the preview phase, which is fine because the preview just above ran it.
  return changesOf((await stack.up()).summary.resourceChanges);
}

function replacementsIn(summary: OpMap): number {
  return (summary.replace ?? 0) + (summary["create-replacement"] ?? 0);
}

function changesOf(summary: OpMap | undefined): string {
  return Object.entries(summary ?? {})
    .map(([kind, count]) => `${count} ${kind}`)
    .join(", ");
}

/**
 * `npx pulumi-voice-platform preflight` for one stack, through the package's own bin, before the
 * stack is selected or created. "missing" when the stack does not exist and --create-stacks asks
 * for it; throws, after printing its report, on anything else that is not a clean stack.
 */
async function preflight(
  stackName: string,
  settings: Settings,
  env: Record<string, string>,
  line: (text: string) => void,
): Promise<"found" | "missing"> {
  const args = [preflightBin(settings.projectDir), "preflight", "--stack", stackName];
  try {
    await promisify(execFile)(process.execPath, [...args, "--cwd", settings.projectDir], { env });
    line("preflight: no interrupted operations");
    return "found";
  } catch (error) {
    const { stdout, stderr, code } = error as { stdout?: string; stderr?: string; code?: number };
    // preflight's exit codes (`npx pulumi-voice-platform --help`): 1 interrupted operations of a
    // stopped run, 3 an update in progress holds the stack, 4 no such stack, 5 the backend could
    // not be read.
    if (code === 4 && settings.createStacks && !settings.destroy) {
      line("preflight: the stack does not exist yet");
      return "missing";
    }
    for (const text of `${stdout ?? ""}${stderr ?? ""}`.trimEnd().split("\n")) line(text);
    throw new Error(preflightFailure(code, stackName, settings.destroy));
  }
}

function preflightBin(projectDir: string): string {
  const manifestPath = require.resolve("pulumi-voice-platform/package.json", {
    paths: [projectDir],
  });
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    bin: Record<string, string>;
  };
  return join(dirname(manifestPath), manifest.bin["pulumi-voice-platform"]!);
}

function preflightFailure(code: number | undefined, stackName: string, destroy: boolean): string {
  switch (code) {
    case 1:
      return "error: preflight found interrupted operations; settle them with the recover command above";
    case 3:
      return "error: the stack is locked by an update in progress; wait for it to finish (do not run recover)";
    case 4:
      if (destroy)
        return `error: stack ${stackName} does not exist on this backend: nothing to destroy (check the backend and the name)`;
      return (
        `error: stack ${stackName} does not exist on this backend; for its first deployment run again with --create-stacks ` +
        "(on any later run it means the backend or the name changed, and a new stack would create every object again)"
      );
    default:
      return `error: preflight could not check the stack (exit ${String(code)}); see its message above`;
  }
}

async function configure(stack: Stack, subOrganizationId: string, settings: Settings) {
  await stack.setAllConfig({
    "voiceplatform:baseUrl": { value: settings.baseUrl },
    "voiceplatform:campaignsBaseUrl": { value: settings.campaignsBaseUrl },
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
  return meaningful.trim().slice(0, 300);
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
  process.exitCode = EXIT.stackFailed;
});
