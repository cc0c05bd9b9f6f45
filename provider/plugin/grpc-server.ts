/**
 * The plugin's gRPC front end: Pulumi's ResourceProvider service as a table of methods over the
 * served resources (provider/core/served-resource) and the provider's own configuration
 * (provider-config); each method only translates structs. Methods this package has no use for
 * (Invoke, Call, Construct, Parameterize, List) are left out: grpc-js answers them UNIMPLEMENTED.
 *
 * gRPC and protobuf come from pulumi-protocol.ts (the copies `@pulumi/pulumi` itself loads).
 */
import type * as Grpc from "@grpc/grpc-js";
import type * as PluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as EmptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import type { DiffAnswer, DiffKind } from "../core/diff";
import { SECRET_SIG, SIG_KEY, UNKNOWN } from "../core/engine-values";
import type { Inputs } from "../core/resource-descriptor";
import { wrapAtPaths } from "../core/secret-paths";
import { IncompleteCreateError } from "../core/errors";
import { servedResource, type ServedResource } from "../core/served-resource";
import { resources } from "../resources";
import { checkProviderConfig, configureProvider, diffProviderConfig } from "./provider-config";
import { providerContext, type ProviderContext } from "../core/provider-context";
import { printToEngine } from "./engine-log";
import { providerLedger } from "../ledger/provider-ledger";
import { secretSettings } from "../settings/config";
import {
  cancelProviderCalls,
  processProviderStates,
  withProviderStates,
  type ProviderStates,
} from "../settings/process-state";
import { packageVersion, resourceToken, servedSchemaText } from "../schema/package-schema";
import {
  anyPb,
  emptyPb,
  grpc,
  pluginPb,
  providerGrpc,
  providerPb,
  statusPb,
  structPb,
} from "./pulumi-protocol";

const servedByToken = new Map<string, ServedResource>(
  resources.map((descriptor) => [
    resourceToken(descriptor.type),
    servedResource(descriptor, providerLedger),
  ]),
);

type Call<Req> = Grpc.ServerUnaryCall<Req, unknown>;
type Done<Res> = (error: Partial<Grpc.StatusObject> | null, response?: Res) => void;

/** The engine's secret markers removed: handlers see plaintext (served-resource keeps it secret). */
function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (record[SIG_KEY] === SECRET_SIG) return unwrapSecrets(record.value);
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, unwrapSecrets(v)]));
}

/** Whether a secret marker sits in `value` anywhere but at the schema's secret paths. */
function holdsMarkedSecret(value: unknown, path: string, secretPaths: readonly string[]): boolean {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value))
    return value.some((item) => holdsMarkedSecret(item, `${path}[]`, secretPaths));
  const record = value as Record<string, unknown>;
  if (record[SIG_KEY] === SECRET_SIG)
    return !secretPaths.includes(path) || holdsMarkedSecret(record.value, path, secretPaths);
  return Object.entries(record).some(([key, item]) =>
    holdsMarkedSecret(item, `${path}.${key}`, secretPaths),
  );
}

/** A property bag as it came from the wire, and its inputs marked secret (see `fromWire`). */
interface Received {
  readonly bag: Inputs;
  readonly marked: readonly string[];
}

/**
 * A property bag from the wire, plaintext (a null property is one the user left out), and its
 * top-level inputs the engine sent marked secret where `secretPaths` do not call them secret: what
 * the user marked (`name: pulumi.secret(...)`), or what was stored so before. Such an input is
 * kept secret whole.
 */
function fromWire(
  struct: StructPb.Struct | undefined,
  secretPaths: readonly string[] = [],
): Received {
  const sent = struct?.toJavaScript() ?? {};
  const marked = Object.keys(sent).filter((name) =>
    holdsMarkedSecret(sent[name], name, secretPaths),
  );
  const bag = unwrapSecrets(sent) as Inputs;
  for (const key of Object.keys(bag)) if (bag[key] === null) delete bag[key];
  return { bag, marked };
}

const fromStruct = (struct: StructPb.Struct | undefined): Inputs => fromWire(struct).bag;

/** The inputs marked secret in any of the bags. */
function markedIn(...received: Received[]): string[] {
  return [...new Set(received.flatMap((r) => r.marked))];
}

/** A property bag for the wire: undefined dropped, the values at the secret paths made secret. */
function toStruct(bag: unknown, secretPaths: readonly string[] = []): StructPb.Struct {
  const plain = JSON.parse(JSON.stringify(bag ?? {})) as Inputs;
  // A whole input secret (marked by the user) holds no secret inside it: one marker each.
  const wholes = new Set(secretPaths.filter((path) => !/[.[]/.test(path)));
  const paths = [...new Set(secretPaths)].filter(
    (path) => wholes.has(path) || !wholes.has(path.split(/[.[]/)[0]!),
  );
  wrapAtPaths(plain, paths, (value) => ({ [SIG_KEY]: SECRET_SIG, value }));
  return structPb.Struct.fromJavaScript(plain as Record<string, StructPb.JavaScriptValue>);
}

/** The resource type a call is for: the request's type, else the last type of its URN. */
function tokenOf(type: string, urn: string): string {
  return type || (urn.split("::")[2]?.split("$").pop() ?? "");
}

function unknownType(token: string): Error {
  return new Error(
    `unknown resource type ${JSON.stringify(token)}: this provider serves ${[...servedByToken.keys()].join(", ")}`,
  );
}

function servedOf(type: string, urn: string): ServedResource {
  const token = tokenOf(type, urn);
  const served = servedByToken.get(token);
  if (served === undefined) throw unknownType(token);
  return served;
}

function failed(error: unknown): Partial<Grpc.StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  return { code: grpc.status.UNKNOWN, details: message };
}

/**
 * A create that made the object before it failed: the engine records it with its state
 * (pulumirpc.ErrorResourceInitFailed) instead of losing it, as the dynamic provider does with the
 * same error's `id`, `properties` and `reasons`.
 */
function failedWithState(error: unknown, secrets: readonly string[]): Partial<Grpc.StatusObject> {
  const answer = failed(error);
  if (!(error instanceof IncompleteCreateError)) return answer;
  const detail = new providerPb.ErrorResourceInitFailed();
  detail.setId(error.id);
  detail.setProperties(toStruct(error.properties, secrets));
  detail.setReasonsList(error.reasons);
  const packed = new anyPb.Any();
  packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusPb.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(answer.details ?? "");
  status.addDetails(packed);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { ...answer, metadata };
}

/**
 * Runs a handler with the call's context, made here from the states of the provider the call is
 * for (its settings as Configure left them, its lifetime) and the call's URN, which its log
 * prints on; answers the call with its result or its (already redacted) error.
 */
function answer<Res>(
  states: ProviderStates,
  call: Call<{ getUrn?(): string | undefined }>,
  done: Done<Res>,
  work: (context: ProviderContext) => Promise<Res>,
  onError: (error: unknown) => Partial<Grpc.StatusObject> = failed,
): void {
  const resource = call.request.getUrn?.() ?? "";
  const context = providerContext({ states, resource, print: printToEngine });
  work(context).then(
    (response) => done(null, response),
    (error: unknown) => done(onError(error)),
  );
}

/**
 * Create and update: the resource's definition found from the request, and an error that carries
 * a partly created resource's state answered with that state, its secrets marked.
 */
function answerWithState<Res>(
  states: ProviderStates,
  call: Call<{ getType(): string; getUrn(): string }>,
  done: Done<Res>,
  receive: (secretPaths: readonly string[]) => Received[],
  work: (
    context: ProviderContext,
    served: ServedResource,
    received: Received[],
    secrets: readonly string[],
  ) => Promise<Res>,
): void {
  const token = tokenOf(call.request.getType(), call.request.getUrn());
  const served = servedByToken.get(token);
  if (served === undefined) {
    done(failed(unknownType(token)));
    return;
  }
  const received = receive(served.descriptor.secretInputs);
  const secrets = [...served.descriptor.secretInputs, ...markedIn(...received)];
  answer(
    states,
    call,
    done,
    (context) => work(context, served, received, secrets),
    (error) => failedWithState(error, secrets),
  );
}

function checkResponse(
  inputs: Inputs,
  failures: { property: string; reason: string }[],
  secrets: readonly string[],
) {
  const response = new providerPb.CheckResponse();
  response.setInputs(toStruct(inputs, secrets));
  response.setFailuresList(
    failures.map((f) => {
      const failure = new providerPb.CheckFailure();
      failure.setProperty(f.property);
      failure.setReason(f.reason);
      return failure;
    }),
  );
  return response;
}

function diffResponse(changed: boolean, replaces: string[], diffs: string[] = []) {
  const response = new providerPb.DiffResponse();
  response.setChanges(
    changed
      ? providerPb.DiffResponse.DiffChanges.DIFF_SOME
      : providerPb.DiffResponse.DiffChanges.DIFF_NONE,
  );
  response.setReplacesList(replaces);
  response.setDiffsList(diffs);
  return response;
}

type PropertyDiffKind = ProviderPb.PropertyDiff.Kind;
const propertyDiffKinds: Record<DiffKind, readonly [PropertyDiffKind, PropertyDiffKind]> = {
  add: [providerPb.PropertyDiff.Kind.ADD, providerPb.PropertyDiff.Kind.ADD_REPLACE],
  update: [providerPb.PropertyDiff.Kind.UPDATE, providerPb.PropertyDiff.Kind.UPDATE_REPLACE],
  delete: [providerPb.PropertyDiff.Kind.DELETE, providerPb.PropertyDiff.Kind.DELETE_REPLACE],
};

/**
 * A resource's diff as the engine takes it: the changed inputs and a detailed diff, from which it
 * applies `replaceOnChanges` and shows why. Each path compares the stored state (the outputs,
 * which echo the inputs) with the new inputs: not an input diff.
 */
function resourceDiffResponse(answer: DiffAnswer) {
  const response = diffResponse(answer.changes, answer.replaces, answer.diffs);
  response.setDeletebeforereplace(answer.deleteBeforeReplace);
  const detailed = response.getDetaileddiffMap();
  for (const [path, diff] of Object.entries(answer.detailedDiff)) {
    const property = new providerPb.PropertyDiff();
    property.setKind(propertyDiffKinds[diff.kind][diff.replace ? 1 : 0]);
    property.setInputdiff(false);
    detailed.set(path, property);
  }
  response.setHasdetaileddiff(true);
  return response;
}

/**
 * The plugin takes secrets: the engine sends what the user marked secret with its marker, so a
 * value marked secret on an input the schema does not call secret is kept out of messages too;
 * the plugin returns the schema's secrets and the marked inputs wrapped (served-resource).
 * Answering the handshake makes the engine send `Create` and `Update` with `preview` set whatever
 * Configure says (Pulumi 3.248's provider_plugin.go), so Configure says so too: both answer
 * those calls with the planned state, without a request.
 */
const protocol = {
  acceptSecrets: true,
  acceptResources: false,
  acceptOutputs: false,
  supportsPreview: true,
};

/**
 * The methods serving the provider owning `states`: Configure writes its settings there, and each
 * call's context is made from them (`answer`).
 */
function providerService(states: ProviderStates) {
  return {
    /**
     * The engine starts the process in the program's directory, where relative sample paths
     * resolve, as in the dynamic provider. The handshake's program directory is the plugin's own
     * folder, so it is not used.
     */
    handshake(
      _call: Call<ProviderPb.ProviderHandshakeRequest>,
      done: Done<ProviderPb.ProviderHandshakeResponse>,
    ) {
      const response = new providerPb.ProviderHandshakeResponse();
      response.setAcceptSecrets(protocol.acceptSecrets);
      response.setAcceptResources(protocol.acceptResources);
      response.setAcceptOutputs(protocol.acceptOutputs);
      done(null, response);
    },

    getPluginInfo(_call: Call<EmptyPb.Empty>, done: Done<PluginPb.PluginInfo>) {
      const response = new pluginPb.PluginInfo();
      response.setVersion(packageVersion());
      done(null, response);
    },

    getSchema(call: Call<ProviderPb.GetSchemaRequest>, done: Done<ProviderPb.GetSchemaResponse>) {
      if (call.request.getVersion() !== 0) {
        done({
          code: grpc.status.INVALID_ARGUMENT,
          details: `unsupported schema version ${call.request.getVersion()}`,
        });
        return;
      }
      const response = new providerPb.GetSchemaResponse();
      response.setSchema(servedSchemaText());
      done(null, response);
    },

    checkConfig(call: Call<ProviderPb.CheckRequest>, done: Done<ProviderPb.CheckResponse>) {
      answer(states, call, done, async (context) => {
        const news = fromWire(call.request.getNews());
        const { inputs, failures, warnings } = checkProviderConfig(
          news.bag,
          process.env,
          (v) => v === UNKNOWN,
        );
        const { log } = context;
        for (const warning of warnings) log.print("warning", warning, log.resource);
        // A setting given from a secret config value stays secret, whatever the setting.
        return checkResponse(inputs, failures, [...secretSettings, ...news.marked]);
      });
    },

    diffConfig(call: Call<ProviderPb.DiffRequest>, done: Done<ProviderPb.DiffResponse>) {
      answer(states, call, done, async () => {
        const { changed, replaces } = diffProviderConfig(
          fromStruct(call.request.getOlds()),
          fromStruct(call.request.getNews()),
        );
        return diffResponse(changed.length > 0, replaces, changed);
      });
    },

    configure(call: Call<ProviderPb.ConfigureRequest>, done: Done<ProviderPb.ConfigureResponse>) {
      answer(states, call, done, async (context) => {
        const args = fromStruct(call.request.getArgs());
        // Configure is not preceded by CheckConfig when a stack's state is destroyed or refreshed.
        // Environment variables are left to the calls that need them, read when they run.
        const { inputs, failures } = checkProviderConfig(args, {}, () => false);
        if (failures.length > 0) {
          throw new Error(
            `the voiceplatform provider's configuration is not valid: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`,
          );
        }
        configureProvider(context.settings, inputs, call.request.getUrn());
        const response = new providerPb.ConfigureResponse();
        response.setAcceptsecrets(protocol.acceptSecrets);
        response.setAcceptresources(protocol.acceptResources);
        response.setAcceptoutputs(protocol.acceptOutputs);
        response.setSupportspreview(protocol.supportsPreview);
        return response;
      });
    },

    check(call: Call<ProviderPb.CheckRequest>, done: Done<ProviderPb.CheckResponse>) {
      answer(states, call, done, async (context) => {
        const served = servedOf(call.request.getType(), call.request.getUrn());
        const paths = served.descriptor.secretInputs;
        const olds = fromWire(call.request.getOlds(), paths);
        const news = fromWire(call.request.getNews(), paths);
        const markedSecret = markedIn(olds, news);
        const { inputs, failures } = await served.check(context, olds.bag, news.bag, {
          markedSecret,
        });
        return checkResponse(inputs, failures, [
          ...served.descriptor.secretInputs,
          ...markedSecret,
        ]);
      });
    },

    diff(call: Call<ProviderPb.DiffRequest>, done: Done<ProviderPb.DiffResponse>) {
      answer(states, call, done, async (context) => {
        const served = servedOf(call.request.getType(), call.request.getUrn());
        const paths = served.descriptor.secretInputs;
        const olds = fromWire(call.request.getOlds(), paths);
        const news = fromWire(call.request.getNews(), paths);
        const result = await served.diff(context, call.request.getId(), olds.bag, news.bag, {
          ignoreChanges: call.request.getIgnorechangesList(),
          markedSecret: markedIn(olds, news),
        });
        return resourceDiffResponse(result);
      });
    },

    create(call: Call<ProviderPb.CreateRequest>, done: Done<ProviderPb.CreateResponse>) {
      const receive = (paths: readonly string[]) => [fromWire(call.request.getProperties(), paths)];
      answerWithState(
        states,
        call,
        done,
        receive,
        async (context, served, [properties], secrets) => {
          const { id, state } = await served.create(
            context,
            properties!.bag,
            call.request.getPreview(),
            {
              markedSecret: properties!.marked,
            },
          );
          const response = new providerPb.CreateResponse();
          if (id !== undefined) response.setId(id);
          response.setProperties(toStruct(state, secrets));
          return response;
        },
      );
    },

    update(call: Call<ProviderPb.UpdateRequest>, done: Done<ProviderPb.UpdateResponse>) {
      const receive = (paths: readonly string[]) => [
        fromWire(call.request.getOlds(), paths),
        fromWire(call.request.getNews(), paths),
      ];
      answerWithState(
        states,
        call,
        done,
        receive,
        async (context, served, [olds, news], secrets) => {
          const state = await served.update(
            context,
            call.request.getId(),
            olds!.bag,
            news!.bag,
            call.request.getPreview(),
            {
              ignoreChanges: call.request.getIgnorechangesList(),
              markedSecret: markedIn(olds!, news!),
            },
          );
          const response = new providerPb.UpdateResponse();
          response.setProperties(toStruct(state, secrets));
          return response;
        },
      );
    },

    delete(call: Call<ProviderPb.DeleteRequest>, done: Done<EmptyPb.Empty>) {
      answer(states, call, done, async (context) => {
        const served = servedOf(call.request.getType(), call.request.getUrn());
        const properties = fromWire(call.request.getProperties(), served.descriptor.secretInputs);
        await served.delete(context, call.request.getId(), properties.bag, {
          markedSecret: properties.marked,
        });
        return new emptyPb.Empty();
      });
    },

    /**
     * A refresh gets back what state holds; an import or a `get`, what the id tells and the served
     * resource's markers, as state and inputs.
     */
    read(call: Call<ProviderPb.ReadRequest>, done: Done<ProviderPb.ReadResponse>) {
      answer(states, call, done, async (context) => {
        const served = servedOf(call.request.getType(), call.request.getUrn());
        const paths = served.descriptor.secretInputs;
        const properties = fromWire(call.request.getProperties(), paths);
        const stored = call.request.getInputs();
        const inputs = stored === undefined ? undefined : fromWire(stored, paths);
        const secrets = [
          ...paths,
          ...markedIn(properties, ...(inputs === undefined ? [] : [inputs])),
        ];
        const id = call.request.getId();
        const read = await served.read(context, id, properties.bag);
        const response = new providerPb.ReadResponse();
        response.setId(id);
        response.setProperties(toStruct(read.state, secrets));
        if (read.inputs !== undefined) response.setInputs(toStruct(read.inputs, secrets));
        else if (inputs !== undefined) response.setInputs(toStruct(inputs.bag, secrets));
        return response;
      });
    },

    /**
     * The engine's Cancel (Ctrl-C; Pulumi 3.231 and later also send it when they close a plugin):
     * the engine still records answers, so calls in flight finish and keep every id the platform
     * returns, while no call starts any more (each fails saying nothing was sent).
     */
    cancel(_call: Call<EmptyPb.Empty>, done: Done<EmptyPb.Empty>) {
      cancelProviderCalls(states);
      done(null, new emptyPb.Empty());
    },

    attach(_call: Call<unknown>, done: Done<EmptyPb.Empty>) {
      done(null, new emptyPb.Empty());
    },

    /** No other provider's state maps onto this one's (used by `pulumi convert`). */
    getMapping(_call: Call<unknown>, done: Done<ProviderPb.GetMappingResponse>) {
      const response = new providerPb.GetMappingResponse();
      response.setProvider("");
      response.setData(new Uint8Array());
      done(null, response);
    },

    getMappings(_call: Call<unknown>, done: Done<ProviderPb.GetMappingsResponse>) {
      done(null, new providerPb.GetMappingsResponse());
    },
  };
}

type Method = (call: Call<unknown>, done: Done<unknown>) => void;

/**
 * The service of one of the providers the shared server serves: its calls are made with its
 * states explicitly (`answer`); they also run inside `withProviderStates`, for the slots a call's
 * context does not reach yet (settings/process-state.ts says which).
 */
function sharedServiceFor(states: ProviderStates): Record<string, Method> {
  return Object.fromEntries(
    Object.entries(providerService(states) as unknown as Record<string, Method>).map(
      ([name, method]) => [
        name,
        (call: Call<unknown>, done: Done<unknown>) =>
          withProviderStates(states, () => method(call, done)),
      ],
    ),
  );
}

/**
 * Serves the provider on a free loopback port and returns the port: the process's own provider,
 * or, given its states, one of the providers the shared server serves.
 */
export async function serve(
  states?: ProviderStates,
): Promise<{ port: number; server: Grpc.Server }> {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
  });
  server.addService(
    providerGrpc.ResourceProviderService,
    (states === undefined
      ? providerService(processProviderStates())
      : sharedServiceFor(states)) as unknown as Grpc.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { port, server };
}
