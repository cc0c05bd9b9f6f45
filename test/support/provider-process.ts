/**
 * Drives the real dynamic-provider process, `@pulumi/pulumi/cmd/dynamic-provider`, over gRPC the
 * way the engine does, without the Pulumi CLI. The process is started from a fixture project, so
 * it runs the installed SDK and resolves `require("pulumi-voice-platform/runtime")` from the
 * project's node_modules, with the project as working directory (relative sample paths resolve
 * against it). gRPC and protobuf modules are loaded from that same SDK so their versions match.
 *
 * One process serves any number of concurrent calls, as under the engine.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as Grpc from "@grpc/grpc-js";
import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import type * as EmptyPb from "google-protobuf/google/protobuf/empty_pb";

/** A property bag as the engine passes it: plain JSON values. */
export type PropertyMap = Record<string, unknown>;

interface ChangeRequest {
  setId(id: string): unknown;
  setUrn(urn: string): unknown;
  setName(name: string): unknown;
  setType(type: string): unknown;
  setOlds(olds: StructPb.Struct): unknown;
  setNews(news: StructPb.Struct): unknown;
  setOldInputs(oldInputs: StructPb.Struct): unknown;
}

export interface CheckResult {
  inputs: PropertyMap;
  failures: { property: string; reason: string }[];
}

export type DiffChanges = "DIFF_UNKNOWN" | "DIFF_NONE" | "DIFF_SOME";

export interface DiffResult {
  changes: DiffChanges;
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
  hasDetailedDiff: boolean;
  /** Kind by property path, as the engine names them: `UPDATE_REPLACE`, `ADD`, … */
  detailedDiff: Record<string, string>;
}

export interface CreateResult {
  id: string;
  properties: PropertyMap;
}

export interface ReadResult {
  id: string;
  properties: PropertyMap;
  inputs: PropertyMap | undefined;
}

export interface ConfigureResult {
  acceptSecrets: boolean;
  supportsPreview: boolean;
}

export interface ProviderProcessOptions {
  /** How long to wait for the process to print its port (default 30 s). */
  startTimeoutMs?: number;
  /** Deadline of each gRPC call (default 120 s). */
  callTimeoutMs?: number;
  /** Engine address argument; the process only requires that one is given (default 127.0.0.1:1). */
  engineAddress?: string;
  /**
   * The executable to start instead of the dynamic provider: a provider plugin such as the
   * project's `node_modules/.bin/pulumi-resource-voiceplatform`, started as the engine starts it.
   */
  executable?: string;
}

/** A gRPC call the provider failed; `message` is the provider's error text behind the method. */
export class ProviderCallError extends Error {
  override name = "ProviderCallError";

  constructor(
    readonly method: string,
    /** gRPC status code: 2 (UNKNOWN) for errors thrown by the provider's handlers. */
    readonly code: number,
    readonly details: string,
  ) {
    super(`${method}: ${details}`);
  }
}

/**
 * A create (or update) error carrying `pulumirpc.ErrorResourceInitFailed`: the object exists on
 * the platform and the engine records it with this id and these properties.
 */
export class ResourceInitError extends ProviderCallError {
  override name = "ResourceInitError";

  constructor(
    method: string,
    code: number,
    details: string,
    readonly id: string,
    readonly properties: PropertyMap,
    readonly reasons: string[],
  ) {
    super(method, code, details);
  }
}

interface SdkModules {
  grpc: typeof Grpc;
  providerGrpc: typeof ProviderGrpcPb;
  provider: typeof ProviderPb;
  status: typeof StatusPb;
  struct: typeof StructPb;
  empty: typeof EmptyPb;
  dynamicProviderPath: string;
}

/** Loads gRPC and the protocol from the project's @pulumi/pulumi, outside jest's registry. */
export function loadSdkModules(projectDir: string): SdkModules {
  const projectRequire = createRequire(join(projectDir, "package.json"));
  const sdkDir = dirname(projectRequire.resolve("@pulumi/pulumi/package.json"));
  const sdkRequire = createRequire(join(sdkDir, "package.json"));
  return {
    grpc: sdkRequire("@grpc/grpc-js"),
    providerGrpc: sdkRequire("./proto/provider_grpc_pb"),
    provider: sdkRequire("./proto/provider_pb"),
    status: sdkRequire("./proto/status_pb"),
    struct: sdkRequire("google-protobuf/google/protobuf/struct_pb"),
    empty: sdkRequire("google-protobuf/google/protobuf/empty_pb"),
    dynamicProviderPath: join(sdkDir, "cmd", "dynamic-provider"),
  };
}

/**
 * Starts `node <project>/node_modules/@pulumi/pulumi/cmd/dynamic-provider <engine>` in the
 * project directory and connects to the port it prints. VOICEPLATFORM_* variables of the calling
 * process are not passed on, so a test's configuration is only what it gives in `env` or
 * `configure`. Call `configure` first, as the engine does: the process needs it before any CRUD.
 */
export async function startProviderProcess(
  projectDir: string,
  env: NodeJS.ProcessEnv = {},
  options: ProviderProcessOptions = {},
): Promise<ProviderProcess> {
  const sdk = loadSdkModules(projectDir);
  const engine = options.engineAddress ?? "127.0.0.1:1";
  const [command, args] =
    options.executable === undefined
      ? [process.execPath, [sdk.dynamicProviderPath, engine]]
      : [options.executable, [engine]];
  const child = spawn(command, args, {
    cwd: projectDir,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = captureOutput(child);
  let port: number;
  try {
    port = await readPort(child, output, options.startTimeoutMs ?? 30_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return new ProviderProcess(sdk, child, output, port, projectDir, options.callTimeoutMs);
}

function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("VOICEPLATFORM_")) inherited[name] = value;
  }
  return { ...inherited, ...env };
}

interface CapturedOutput {
  stdout: string;
  stderr: string;
  readonly listeners: Set<() => void>;
}

function captureOutput(child: ChildProcess): CapturedOutput {
  const output: CapturedOutput = { stdout: "", stderr: "", listeners: new Set() };
  const notify = () => output.listeners.forEach((listener) => listener());
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
    notify();
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
    notify();
  });
  child.on("exit", notify);
  return output;
}

/** The process prints its port as the first line of stdout once the server listens. */
function readPort(child: ChildProcess, output: CapturedOutput, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`no port within ${timeoutMs} ms`)), timeoutMs);
    const settle = (result: number | Error) => {
      clearTimeout(timer);
      output.listeners.delete(poll);
      child.off("error", settle);
      if (typeof result === "number") resolve(result);
      else reject(new Error(`dynamic provider did not start: ${result.message}\n${output.stderr}`));
    };
    const poll = () => {
      const newline = output.stdout.indexOf("\n");
      if (newline >= 0) {
        const line = output.stdout.slice(0, newline).trim();
        output.stdout = output.stdout.slice(newline + 1);
        const port = Number(line);
        settle(Number.isInteger(port) && port > 0 ? port : new Error(`printed "${line}"`));
      } else if (child.exitCode !== null || child.signalCode !== null) {
        settle(new Error(`exited with ${child.exitCode ?? child.signalCode}`));
      }
    };
    output.listeners.add(poll);
    child.on("error", settle);
    poll();
  });
}

type Callback<T> = (error: Grpc.ServiceError | null, response: T) => void;

/** A running dynamic-provider process and a gRPC client connected to it. */
export class ProviderProcess {
  readonly pid: number;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly client: ProviderGrpcPb.ResourceProviderClient;
  private readonly callTimeoutMs: number;

  constructor(
    private readonly sdk: SdkModules,
    private readonly child: ChildProcess,
    private readonly output: CapturedOutput,
    readonly port: number,
    readonly projectDir: string,
    callTimeoutMs = 120_000,
  ) {
    this.pid = child.pid!;
    this.callTimeoutMs = callTimeoutMs;
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve({ code: child.exitCode, signal: child.signalCode });
      } else child.once("exit", (code, signal) => resolve({ code, signal }));
    });
    this.client = new sdk.providerGrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      sdk.grpc.credentials.createInsecure(),
      { "grpc.max_receive_message_length": 400 * 1024 * 1024 },
    );
  }

  /** Everything the process wrote to stderr so far: console.warn/error of the provider. */
  get stderr(): string {
    return this.output.stderr;
  }

  /** What the process wrote to stdout after its port line (console.log of the provider). */
  get stdout(): string {
    return this.output.stdout;
  }

  /**
   * Resolves with stderr once it matches. A warning is written before the gRPC answer is sent,
   * but the pipe and the socket are read independently, so it may arrive just after the answer.
   */
  waitForStderr(pattern: RegExp | string, timeoutMs = 5000): Promise<string> {
    const matches = () =>
      typeof pattern === "string" ? this.stderr.includes(pattern) : pattern.test(this.stderr);
    if (matches()) return Promise.resolve(this.stderr);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.output.listeners.delete(check);
        reject(
          new Error(`stderr did not match ${String(pattern)} in ${timeoutMs} ms:\n${this.stderr}`),
        );
      }, timeoutMs);
      const check = () => {
        if (!matches()) return;
        clearTimeout(timer);
        this.output.listeners.delete(check);
        resolve(this.stderr);
      };
      this.output.listeners.add(check);
    });
  }

  /**
   * Sends stack config the way the engine does: as `variables` and as the `args` struct that the
   * dynamic provider reads. Keys carry their namespace: `voiceplatform:apiKey`.
   */
  async configure(config: Record<string, string>): Promise<ConfigureResult> {
    const request = new this.sdk.provider.ConfigureRequest();
    const variables = request.getVariablesMap();
    for (const [key, value] of Object.entries(config)) variables.set(key, value);
    request.setArgs(this.toStruct(config));
    return this.sendConfigure(request);
  }

  /**
   * Configures a provider plugin as the engine does: `args` are the provider's inputs by their
   * own names (`apiKey`), secrets wrapped as on the wire; `variables` as `voiceplatform:config:*`.
   */
  async configureProvider(args: PropertyMap): Promise<ConfigureResult> {
    const request = new this.sdk.provider.ConfigureRequest();
    const variables = request.getVariablesMap();
    for (const [key, value] of Object.entries(args)) {
      variables.set(
        `voiceplatform:config:${key}`,
        typeof value === "string" ? value : JSON.stringify(value),
      );
    }
    request.setArgs(this.toStruct(args));
    request.setType("pulumi:providers:voiceplatform");
    return this.sendConfigure(request);
  }
  /** Configure as the engine sends it, whatever configured the request. */
  private async sendConfigure(request: ProviderPb.ConfigureRequest): Promise<ConfigureResult> {
    request.setAcceptsecrets(true);
    request.setAcceptresources(true);
    request.setSendsOldInputs(true);
    request.setSendsOldInputsToDelete(true);
    const response = await this.call<ProviderPb.ConfigureResponse>("configure", (...rest) =>
      this.client.configure(request, ...rest),
    );
    return {
      acceptSecrets: response.getAcceptsecrets(),
      supportsPreview: response.getSupportspreview(),
    };
  }

  /** CheckConfig of a provider plugin: the provider's old and new inputs. */
  checkConfig(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    return this.checkWith("checkConfig", urn, olds, news);
  }

  /** DiffConfig of a provider plugin: `olds` the stored provider outputs, `news` the checked inputs. */
  async diffConfig(urn: string, olds: PropertyMap, news: PropertyMap): Promise<DiffResult> {
    const request = this.changeRequest(
      new this.sdk.provider.DiffRequest(),
      "",
      urn,
      olds,
      news,
      olds,
    );
    const response = await this.call<ProviderPb.DiffResponse>("diffConfig", (...rest) =>
      this.client.diffConfig(request, ...rest),
    );
    return this.toDiffResult(response);
  }

  async getSchema(): Promise<Record<string, unknown>> {
    const request = new this.sdk.provider.GetSchemaRequest();
    const response = await this.call<ProviderPb.GetSchemaResponse>("getSchema", (...rest) =>
      this.client.getSchema(request, ...rest),
    );
    return JSON.parse(response.getSchema()) as Record<string, unknown>;
  }

  check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    return this.checkWith("check", urn, olds, news);
  }

  /** Check and CheckConfig take the same request and give the same answer. */
  private async checkWith(
    method: "check" | "checkConfig",
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
  ): Promise<CheckResult> {
    const request = new this.sdk.provider.CheckRequest();
    request.setUrn(urn);
    this.nameAndType(urn, request);
    request.setOlds(this.toStruct(olds));
    request.setNews(this.toStruct(news));
    const response = await this.call<ProviderPb.CheckResponse>(method, (...rest) =>
      this.client[method](request, ...rest),
    );
    return {
      inputs: response.getInputs()?.toJavaScript() ?? {},
      failures: response.getFailuresList().map((failure) => ({
        property: failure.getProperty(),
        reason: failure.getReason(),
      })),
    };
  }

  /** `olds` are the stored outputs, as the engine sends them; `oldInputs` the stored inputs. */
  async diff(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    oldInputs?: PropertyMap,
  ): Promise<DiffResult> {
    const request = this.changeRequest(
      new this.sdk.provider.DiffRequest(),
      id,
      urn,
      olds,
      news,
      oldInputs,
    );
    const response = await this.call<ProviderPb.DiffResponse>("diff", (...rest) =>
      this.client.diff(request, ...rest),
    );
    return this.toDiffResult(response);
  }

  private toDiffResult(response: ProviderPb.DiffResponse): DiffResult {
    const names: Record<number, DiffChanges> = {
      0: "DIFF_UNKNOWN",
      1: "DIFF_NONE",
      2: "DIFF_SOME",
    };
    const kinds = Object.fromEntries(
      Object.entries(this.sdk.provider.PropertyDiff.Kind).map(([name, value]) => [value, name]),
    );
    const detailedDiff: Record<string, string> = {};
    response.getDetaileddiffMap().forEach((diff, path) => {
      detailedDiff[path] =
        `${kinds[diff.getKind()] ?? diff.getKind()}${diff.getInputdiff() ? " (input)" : ""}`;
    });
    return {
      changes: names[response.getChanges()] ?? "DIFF_UNKNOWN",
      replaces: response.getReplacesList(),
      stables: response.getStablesList(),
      deleteBeforeReplace: response.getDeletebeforereplace(),
      diffs: response.getDiffsList(),
      hasDetailedDiff: response.getHasdetaileddiff(),
      detailedDiff,
    };
  }

  /** Rejects with `ResourceInitError` when the provider reports a partly created resource. */
  async create(
    urn: string,
    properties: PropertyMap,
    options: { preview?: boolean } = {},
  ): Promise<CreateResult> {
    const request = new this.sdk.provider.CreateRequest();
    request.setUrn(urn);
    this.nameAndType(urn, request);
    request.setProperties(this.toStruct(properties));
    request.setPreview(options.preview ?? false);
    const response = await this.call<ProviderPb.CreateResponse>("create", (...rest) =>
      this.client.create(request, ...rest),
    );
    return { id: response.getId(), properties: response.getProperties()?.toJavaScript() ?? {} };
  }

  async read(
    id: string,
    urn: string,
    properties: PropertyMap,
    inputs?: PropertyMap,
  ): Promise<ReadResult> {
    const request = new this.sdk.provider.ReadRequest();
    request.setId(id);
    request.setUrn(urn);
    this.nameAndType(urn, request);
    request.setProperties(this.toStruct(properties));
    if (inputs !== undefined) request.setInputs(this.toStruct(inputs));
    const response = await this.call<ProviderPb.ReadResponse>("read", (...rest) =>
      this.client.read(request, ...rest),
    );
    return {
      id: response.getId(),
      properties: response.getProperties()?.toJavaScript() ?? {},
      inputs: response.getInputs()?.toJavaScript(),
    };
  }

  /** `olds` are the stored outputs; `news` the checked new inputs. */
  async update(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    oldInputs?: PropertyMap,
    options: { preview?: boolean } = {},
  ): Promise<{ properties: PropertyMap }> {
    const request = this.changeRequest(
      new this.sdk.provider.UpdateRequest(),
      id,
      urn,
      olds,
      news,
      oldInputs,
    );
    request.setPreview(options.preview ?? false);
    const response = await this.call<ProviderPb.UpdateResponse>("update", (...rest) =>
      this.client.update(request, ...rest),
    );
    return { properties: response.getProperties()?.toJavaScript() ?? {} };
  }

  /** `properties` are the stored outputs, whose `__provider` the process runs. */
  async delete(
    id: string,
    urn: string,
    properties: PropertyMap,
    oldInputs?: PropertyMap,
  ): Promise<void> {
    const request = new this.sdk.provider.DeleteRequest();
    request.setId(id);
    request.setUrn(urn);
    this.nameAndType(urn, request);
    request.setProperties(this.toStruct(properties));
    if (oldInputs !== undefined) request.setOldInputs(this.toStruct(oldInputs));
    await this.call<EmptyPb.Empty>("delete", (...rest) => this.client.delete(request, ...rest));
  }

  async getPluginInfo(): Promise<{ version: string }> {
    const response = await this.call<{ getVersion(): string }>("getPluginInfo", (...rest) =>
      this.client.getPluginInfo(new this.sdk.empty.Empty(), ...rest),
    );
    return { version: response.getVersion() };
  }

  /** The engine's Cancel: sent on Ctrl-C, and by Pulumi 3.231 and later when closing a plugin. */
  async cancel(): Promise<void> {
    await this.call<EmptyPb.Empty>("cancel", (...rest) =>
      this.client.cancel(new this.sdk.empty.Empty(), ...rest),
    );
  }

  /** Closes the connection and ends the process (SIGTERM, then SIGKILL after 5 s). */
  async close(): Promise<void> {
    this.client.close();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  private call<T>(
    method: string,
    start: (metadata: Grpc.Metadata, options: Partial<Grpc.CallOptions>, done: Callback<T>) => void,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const deadline = Date.now() + this.callTimeoutMs;
      start(new this.sdk.grpc.Metadata(), { deadline }, (error, response) => {
        if (error) reject(this.toError(method, error));
        else resolve(response);
      });
    });
  }

  private toError(method: string, error: Grpc.ServiceError): ProviderCallError {
    const details = error.details || error.message;
    const failure = this.initFailure(error.metadata);
    if (failure === undefined) return new ProviderCallError(method, error.code, details);
    return new ResourceInitError(
      method,
      error.code,
      details,
      failure.getId(),
      failure.getProperties()?.toJavaScript() ?? {},
      failure.getReasonsList(),
    );
  }

  /** Decodes `grpc-status-details-bin`, where the process packs a partly created resource. */
  private initFailure(metadata: Grpc.Metadata | undefined) {
    const [raw] = metadata?.get("grpc-status-details-bin") ?? [];
    if (raw === undefined || typeof raw === "string") return undefined;
    const status = this.sdk.status.Status.deserializeBinary(new Uint8Array(raw));
    const detail = status
      .getDetailsList()
      .find((any) => any.getTypeName() === "pulumirpc.ErrorResourceInitFailed");
    return detail === undefined
      ? undefined
      : this.sdk.provider.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
  }

  /** The engine sets name and type beside the URN; providers may read either. */
  /** Diff and Update carry the same fields: what is stored, and what is declared now. */
  private changeRequest<R extends ChangeRequest>(
    request: R,
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    oldInputs: PropertyMap | undefined,
  ): R {
    request.setId(id);
    request.setUrn(urn);
    this.nameAndType(urn, request);
    request.setOlds(this.toStruct(olds));
    request.setNews(this.toStruct(news));
    if (oldInputs !== undefined) request.setOldInputs(this.toStruct(oldInputs));
    return request;
  }

  private nameAndType(
    urn: string,
    request: { setName(n: string): unknown; setType(t: string): unknown },
  ) {
    const parts = urn.split("::");
    if (parts.length < 4) return;
    request.setName(parts[parts.length - 1]!);
    request.setType(parts[2]!.split("$").pop()!);
  }

  /** Plain JSON first: the wire format has no `undefined`, and the engine never sends one. */
  private toStruct(value: PropertyMap): StructPb.Struct {
    return this.sdk.struct.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
  }
}
