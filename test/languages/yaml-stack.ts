/**
 * A Pulumi YAML program run by the real CLI against the plugin as users install it: a fixture
 * project with the packed package installed, its `node_modules/.bin` on PATH (where the engine
 * finds `pulumi-resource-voiceplatform`), a file backend and a passphrase inside the project.
 * Every command runs as a user would type it; nothing goes through the Automation API.
 * `forProject` runs any other program the same way (a copied-out Python example, say).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { cli } from "../e2e/harness";
import { runToEnd, type CommandResult } from "../support/command-result";
import {
  createFixtureProject,
  removeFixtureProject,
  writeFixtureFile,
} from "../support/packed-package";

/** What the CLI printed, with its exit code; commands that fail do not throw. */
export type { CommandResult } from "../support/command-result";

export class YamlStack {
  /** Every command's output but those asked to show secrets, for scans of what the engine printed. */
  readonly transcript: string[] = [];

  private constructor(
    readonly dir: string,
    readonly stack: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * A project holding `program` as Pulumi.yaml (plus `files`), with a new stack selected. With
   * `ambient: false` the project's node_modules/.bin is not on PATH, for the other install routes.
   */
  static async create(
    program: string,
    files: Record<string, string | Uint8Array> = {},
    {
      ambient = true,
      backendClients = false,
    }: { ambient?: boolean; backendClients?: boolean } = {},
  ): Promise<YamlStack> {
    const dir = await createFixtureProject({ name: "plugin-yaml-program", files, backendClients });
    await writeFixtureFile(dir, "Pulumi.yaml", program);
    await mkdir(join(dir, ".state"), { recursive: true });
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("VOICEPLATFORM_")),
    );
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      PATH: [
        ...(ambient ? [join(dir, "node_modules", ".bin")] : []),
        cli!.binDir,
        process.env.PATH,
      ].join(delimiter),
      PULUMI_HOME: join(dir, ".pulumi-home"),
      PULUMI_BACKEND_URL: `file://${join(dir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "plugin-yaml-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
    const stack = new YamlStack(dir, "dev", env);
    await stack.must(["stack", "init", "dev"]);
    return stack;
  }

  /**
   * A project prepared elsewhere (an example copied out with its toolchain), with `env` on top of
   * the same settings (its PATH first: where the plugin and the language's tools are found).
   */
  static async forProject(dir: string, env: NodeJS.ProcessEnv): Promise<YamlStack> {
    await mkdir(join(dir, ".state"), { recursive: true });
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("VOICEPLATFORM_")),
    );
    const stack = new YamlStack(dir, "dev", {
      ...inherited,
      ...env,
      PATH: [env.PATH ?? process.env.PATH, cli!.binDir].join(delimiter),
      PULUMI_HOME: join(dir, ".pulumi-home"),
      PULUMI_BACKEND_URL: `file://${join(dir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "plugin-program-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    });
    await stack.must(["stack", "init", "dev"]);
    return stack;
  }

  /**
   * Another stack of this project with `env` on top of this one's (another backend, say), and a
   * Pulumi home of its own: the selected stack lives there, so stacks can run at once.
   */
  async otherStack(stack: string, env: NodeJS.ProcessEnv): Promise<YamlStack> {
    const home = join(this.dir, `.pulumi-home-${stack}`);
    await mkdir(home, { recursive: true });
    const other = new YamlStack(this.dir, stack, { ...this.env, ...env, PULUMI_HOME: home });
    await other.must(["stack", "init", stack]);
    return other;
  }

  /** `pulumi` with `args`, and `extraEnv` on top of the stack's environment for this command. */
  async pulumi(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CommandResult> {
    const record = (...texts: string[]) => {
      if (!args.includes("--show-secrets")) this.transcript.push(...texts);
    };
    const result = await runToEnd(cli!.pulumi, [...args, "--non-interactive"], {
      cwd: this.dir,
      env: { ...this.env, ...extraEnv },
    });
    record(result.stdout, result.stderr);
    return result;
  }

  /** This package's own CLI (`pulumi-voice-platform`), as installed in the project. */
  async tool(args: string[]): Promise<CommandResult> {
    const bin = join(this.dir, "node_modules", ".bin", "pulumi-voice-platform");
    const result = await runToEnd(bin, args, { cwd: this.dir, env: this.env });
    this.transcript.push(result.stdout, result.stderr);
    return result;
  }

  /** The environment the stack's commands run with, for a script that runs them itself. */
  environment(): NodeJS.ProcessEnv {
    return { ...this.env };
  }

  /** Runs a command that must succeed; its output otherwise goes into the error. */
  async must(args: string[]): Promise<CommandResult> {
    const result = await this.pulumi(args);
    if (result.code !== 0) {
      throw new Error(
        `pulumi ${args.join(" ")} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`,
      );
    }
    return result;
  }

  async config(values: Record<string, string>, secret = false): Promise<void> {
    for (const [key, value] of Object.entries(values)) {
      await this.must(["config", "set", ...(secret ? ["--secret"] : []), key, value]);
    }
  }

  /** `pulumi up --yes` as users run it: its preview phase first. */
  async pulumiUp(): Promise<CommandResult> {
    return this.must(["up", "--yes"]);
  }

  /** `pulumi import --file FILE` as a team adopts objects: unprotected, no code printed. */
  async importFile(file: string): Promise<CommandResult> {
    return this.must([
      "import",
      "--file",
      file,
      "--yes",
      "--protect=false",
      "--generate-code=false",
    ]);
  }

  /** The stack's outputs (secrets shown). */
  async outputs(): Promise<Record<string, unknown>> {
    const { stdout } = await this.must(["stack", "output", "--json", "--show-secrets"]);
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  /** `pulumi stack export` as a user runs it: secrets stay encrypted unless asked. */
  async exportText(showSecrets = false): Promise<string> {
    return (await this.must(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])]))
      .stdout;
  }

  /** The resources in the exported state, by URN name. */
  async resources(showSecrets = false): Promise<Record<string, StateResource>> {
    const exported = JSON.parse(await this.exportText(showSecrets)) as {
      deployment: { resources?: StateResource[] };
    };
    const byName: Record<string, StateResource> = {};
    for (const resource of exported.deployment.resources ?? []) {
      byName[resource.urn.split("::").pop()!] = resource;
    }
    return byName;
  }

  async writeProgram(program: string): Promise<void> {
    await writeFile(join(this.dir, "Pulumi.yaml"), program);
  }

  async readStackConfig(): Promise<string> {
    return readFile(join(this.dir, `Pulumi.${this.stack}.yaml`), "utf8").catch(() => "");
  }

  async remove(): Promise<void> {
    await removeFixtureProject(this.dir);
  }
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  provider?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** Change counts from the summary line of `up`/`preview`: "+ 3 created", "~ 1 updated", … */
export function changeSummary(text: string): Record<string, number> {
  const summary: Record<string, number> = {};
  for (const match of text.matchAll(
    /^\s*[-+~=<>±]*\s*(\d+) (created|updated|replaced|deleted|unchanged|imported|to create|to update|to replace|to delete|to import)\b/gm,
  )) {
    summary[match[2]!] = Number(match[1]);
  }
  return summary;
}
