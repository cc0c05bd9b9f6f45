/**
 * Shared pieces of the end-to-end tests: the real Pulumi CLI through the Automation API, a
 * temporary file backend and passphrase per test file, and a fixture project where the package is
 * installed from `npm pack` output (test/support/packed-package.ts).
 *
 * Without a Pulumi CLI the suites skip with one message locally and fail when CI is set: describeE2E
 * is requirePulumiCli's guard (test/support/require-pulumi-cli.ts) with the e2e timeout. `E2E_PULUMI_VERSION` installs another @pulumi/pulumi into the
 * fixture projects (test/e2e/node22.ts sets it to the newest release).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import {
  LocalWorkspace,
  PulumiCommand,
  type ConfigMap,
  type EngineEvent,
  type Stack,
} from "@pulumi/pulumi/automation";
import { locatePulumi, pulumiEnv } from "../pulumi-cli/locate";
import {
  createFixtureProject,
  removeFixtureProject,
  writeFixtureFile,
} from "../support/packed-package";
import { programFiles } from "./program";
import { requirePulumiCli, type Requirement } from "../support/require-pulumi-cli";

const run = promisify(execFile);

/** The located CLI, for the helpers below; suites are guarded by describeE2E. */
export const cli = locatePulumi();

/** Generous: a cold fixture install alone can take a minute on a 2-core machine. */
export const E2E_TIMEOUT_MS = 600_000;

/** One passphrase for every e2e stack; never a real secret. */
export const PASSPHRASE = "e2e-test-passphrase";

/**
 * `describe` when a CLI (and whatever `also` names) is there; otherwise skipped with a message, or
 * a failure under CI (requirePulumiCli).
 */
export function describeE2E(
  title: string,
  body: () => void,
  also: readonly Requirement[] = [],
): void {
  requirePulumiCli({ purpose: title, also }).describe(title, () => {
    jest.setTimeout(E2E_TIMEOUT_MS);
    body();
  });
}

let command: Promise<PulumiCommand> | undefined;

function pulumiCommand(): Promise<PulumiCommand> {
  const binDir = cli!.binDir;
  // PulumiCommand.get({ root }) runs <root>/bin/pulumi; a CLI elsewhere is taken from PATH.
  command ??= PulumiCommand.get({
    ...(basename(binDir) === "bin" ? { root: dirname(binDir) } : {}),
    skipVersionCheck: true,
  });
  return command;
}

/** The @pulumi/pulumi version the fixture projects get, when not the repo's. */
export function fixturePulumiVersion(): string | undefined {
  const version = process.env.E2E_PULUMI_VERSION;
  return version === undefined || version === "" ? undefined : version;
}

/**
 * process.env without anything that would configure the provider behind a test's back:
 * every VOICEPLATFORM_* variable and any Pulumi backend, home or passphrase of the developer.
 */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^VOICEPLATFORM_/.test(name)) continue;
    if (/^PULUMI_(BACKEND_URL|HOME|CONFIG_PASSPHRASE(_FILE)?|ACCESS_TOKEN)$/.test(name)) continue;
    if (/^npm_/i.test(name)) continue;
    env[name] = value;
  }
  return env;
}

export interface StackOptions {
  /** Extra environment of the CLI, the program and the provider (VOICEPLATFORM_* fallbacks). */
  env?: Record<string, string>;
  /** Stack config set before returning (secrets with `secret: true`). */
  config?: ConfigMap;
}

/** What one engine operation printed, for assertions on warnings and errors. */
export interface Transcript {
  /** The CLI's standard output as the user sees it. */
  text: string;
  /** Diagnostic events (warnings, provider output, errors). */
  diagnostics: { severity: string; message: string; urn?: string }[];
}

/**
 * A fixture project with its own backend directory and Pulumi home. Stacks of the project are
 * created with `stack(name)`; all share the backend, as environments of one project do.
 */
export class E2EProject {
  private constructor(
    /** Project directory: the package installed from its tarball, the program, the samples. */
    readonly dir: string,
    /** Holds the file backend and the Pulumi home. */
    readonly root: string,
  ) {}

  /**
   * Creates the project from the packed package (or `tarball`, a build of another version,
   * through the VOICEPLATFORM_FIXTURE_TARBALL override of packed-package.ts), with the program of
   * program.ts or the given `files`.
   */
  static async create(
    options: {
      tarball?: string;
      root?: string;
      files?: Record<string, string | Uint8Array>;
      /** The state backends' clients too (packed-package.ts's backendClients). */
      backendClients?: boolean;
    } = {},
  ): Promise<E2EProject> {
    const root = options.root ?? (await mkdtemp(join(tmpdir(), "voice-platform-e2e-")));
    await mkdir(join(root, "backend"), { recursive: true });
    await mkdir(join(root, "home"), { recursive: true });
    const previous = process.env.VOICEPLATFORM_FIXTURE_TARBALL;
    if (options.tarball !== undefined) process.env.VOICEPLATFORM_FIXTURE_TARBALL = options.tarball;
    try {
      const pulumiVersion = fixturePulumiVersion();
      const dir = await createFixtureProject({
        name: "voice-platform-e2e",
        files: options.files ?? programFiles(),
        ...(options.backendClients === true ? { backendClients: true } : {}),
        ...(pulumiVersion === undefined ? {} : { pulumiVersion }),
      });
      return new E2EProject(dir, root);
    } finally {
      if (previous === undefined) delete process.env.VOICEPLATFORM_FIXTURE_TARBALL;
      else process.env.VOICEPLATFORM_FIXTURE_TARBALL = previous;
    }
  }

  /**
   * A project around a program prepared elsewhere (a Python or Go program, say), with its backend
   * and Pulumi home under `root`.
   */
  static async forDirectory(dir: string, root: string): Promise<E2EProject> {
    await mkdir(join(root, "backend"), { recursive: true });
    await mkdir(join(root, "home"), { recursive: true });
    return new E2EProject(dir, root);
  }

  get backendUrl(): string {
    return `file://${join(this.root, "backend")}`;
  }

  get pulumiHome(): string {
    return join(this.root, "home");
  }

  /** The environment every CLI run of this project gets, plus `extra`. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return pulumiEnv({
      ...cleanEnv(),
      PULUMI_BACKEND_URL: this.backendUrl,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      ...extra,
    }) as Record<string, string>;
  }

  /** Creates (or selects) a stack of this project, with the given environment and config. */
  async stack(name: string, options: StackOptions = {}): Promise<Stack> {
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: name, workDir: this.dir },
      {
        pulumiCommand: await pulumiCommand(),
        pulumiHome: this.pulumiHome,
        envVars: this.env(options.env),
      },
    );
    if (options.config !== undefined) await stack.setAllConfig(options.config);
    return stack;
  }

  /**
   * `pulumi stack export` as a user runs it, without `--show-secrets` (which the Automation API's
   * `exportStack` always passes): secrets stay encrypted.
   */
  async exportStackText(stackName: string): Promise<string> {
    const { stdout } = await run(cli!.pulumi, ["stack", "export", "--stack", stackName], {
      cwd: this.dir,
      env: { ...this.env(), PULUMI_HOME: this.pulumiHome },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  }

  async writeFile(relativePath: string, content: string | Uint8Array): Promise<void> {
    await writeFixtureFile(this.dir, relativePath, content);
  }

  /** The stack's config file, Pulumi.<stack>.yaml, as written by `pulumi config set`. */
  async stackConfigFile(stackName: string): Promise<string> {
    return readFile(join(this.dir, `Pulumi.${stackName}.yaml`), "utf8");
  }

  /** Removes the project and, unless it was given, the backend and home. */
  async remove(options: { keepRoot?: boolean } = {}): Promise<void> {
    await removeFixtureProject(this.dir);
    if (!options.keepRoot) await rm(this.root, { recursive: true, force: true });
  }
}

/** Collects what an operation prints; pass `transcript.options` to up/preview/refresh/destroy. */
export function recorder(): Transcript & {
  options: { onOutput: (text: string) => void; onEvent: (event: EngineEvent) => void };
} {
  const transcript = {
    text: "",
    diagnostics: [] as Transcript["diagnostics"],
    options: {
      onOutput: (text: string) => {
        transcript.text += text;
      },
      onEvent: (event: EngineEvent) => {
        const diagnostic = event.diagnosticEvent;
        // Debug events (every RPC the program makes) are many and say nothing to a user.
        if (diagnostic !== undefined && (diagnostic.severity as string) !== "debug") {
          transcript.diagnostics.push({
            severity: diagnostic.severity,
            message: diagnostic.message,
            ...(diagnostic.urn === undefined ? {} : { urn: diagnostic.urn }),
          });
        }
      },
    },
  };
  return transcript;
}

/**
 * Warnings the provider printed. The dynamic resources send them to the engine's log on the
 * resource they concern (diagnostics of severity "warning" with its URN, or none when the stored
 * state does not say which resource it is); an older provider's leave the provider process on
 * stderr, which the engine forwards as "info#err" without a URN and the CLI shows under the stack.
 */
export function providerWarnings(transcript: Transcript): string[] {
  return providerWarningDiagnostics(transcript).map((d) => d.message);
}

/**
 * What a diff that replaces says (once per provider process, so at a preview and at the update
 * phase of an `up`): the old object will stay on the platform. Tests of other warnings set it
 * aside with this.
 */
export const WILL_STAY = "will be replaced, and the platform cannot delete";

/** The same warnings with the URN each was shown on ("" for the stack). */
export function providerWarningDiagnostics(
  transcript: Transcript,
): { message: string; urn: string }[] {
  return transcript.diagnostics.flatMap((d) => {
    // The engine's own notice that a plugin came from PATH is no provider's warning.
    if (d.severity === "warning" && !/^using pulumi-resource-\S+ from \$PATH/.test(d.message)) {
      const urn = d.urn === undefined || d.urn.endsWith("pulumi:pulumi:Stack") ? "" : d.urn;
      return [{ message: d.message.trim(), urn }];
    }
    if (d.severity === "info#err" && d.message.startsWith("warning: "))
      return [{ message: d.message.slice("warning: ".length).trim(), urn: "" }];
    return [];
  });
}

/** The message of a failed Automation API call, with the CLI's stderr and stdout. */
export function errorText(error: unknown): string {
  if (error instanceof Error) {
    const { stderr, stdout } = error as Error & { stderr?: string; stdout?: string };
    return [error.message, stderr ?? "", stdout ?? ""].join("\n");
  }
  return String(error);
}
