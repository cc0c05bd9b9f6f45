/**
 * What the handlers print reaches the user through the engine's log, attached to the resource
 * being worked on: the engine does not show a provider plugin's console output. Warnings
 * (`console.warn`) become engine warnings and other console output engine info; all of it is
 * still written to stderr, where it is found when no engine listens (a test driving the process).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { format } from "node:util";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import { engineGrpc, enginePb, grpc } from "./pulumi-protocol";

/**
 * The URN of the resource whose call is running, for everything it prints. Made with the first
 * call: the single executable's startup snapshot holds this module, and async context made while
 * a snapshot is built is not carried into the process.
 */
let currentCall: AsyncLocalStorage<string> | undefined;

export function withResource<T>(urn: string, work: () => T): T {
  currentCall ??= new AsyncLocalStorage<string>();
  return currentCall.run(urn, work);
}

export function forwardConsoleToEngine(engineAddress: string | undefined): void {
  if (!engineAddress) return;
  // Connected with the first message: most plugin processes print none.
  let engine: InstanceType<typeof engineGrpc.EngineClient> | undefined;
  const send = (severity: EnginePb.LogSeverity, args: unknown[]) => {
    const text = format(...args);
    process.stderr.write(`${text}\n`);
    const request = new enginePb.LogRequest();
    request.setSeverity(severity);
    request.setMessage(text.replace(/^warning: /, ""));
    request.setUrn(currentCall?.getStore() ?? "");
    engine ??= new engineGrpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
    // A log that cannot be delivered is still on stderr: nothing else to do with it.
    engine.log(request, () => undefined);
  };
  console.warn = (...args: unknown[]) => send(enginePb.LogSeverity.WARNING, args);
  console.log = (...args: unknown[]) => send(enginePb.LogSeverity.INFO, args);
  console.info = console.log;
}
