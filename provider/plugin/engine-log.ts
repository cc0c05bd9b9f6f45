/**
 * What the handlers print reaches the user through the engine's log, attached to the resource
 * being worked on (the URN the call's log carries, core/provider-log's `ProviderLog`): the engine
 * does not show a provider plugin's console output, and shows a dynamic provider's on the stack
 * instead of the resource. A call's log prints through `printToEngine`, with its URN; the rest
 * of the console goes to the engine too, on no resource. Warnings (`console.warn`) become engine
 * warnings and other console output engine info. Both front ends use it: the plugin process and,
 * inside the dynamic-provider process, the dynamic resources' handlers.
 */
import { format } from "node:util";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import { consolePrinter, type LogPrinter, type LogSeverity } from "../core/provider-log";
import { engineGrpc, enginePb, grpc } from "./pulumi-protocol";

export interface EngineLogOptions {
  /**
   * "always" (the plugin: its stderr is found when no engine listens, a test driving the
   * process), or "when-undelivered" (the dynamic provider, whose stderr the engine shows too).
   */
  readonly stderr: "always" | "when-undelivered";
}

type Send = (severity: EnginePb.LogSeverity, text: string, urn: string) => void;

/** How this process reaches the engine's log, once forwarding started: one engine per process. */
let sendToEngine: Send | undefined;

/** Where the front ends' call logs print: the engine's log on the call's resource, once started. */
export const printToEngine: LogPrinter = (severity: LogSeverity, text, urn) => {
  if (sendToEngine === undefined) consolePrinter(severity, text, urn);
  else if (severity === "warning")
    sendToEngine(enginePb.LogSeverity.WARNING, `warning: ${text}`, urn);
  else sendToEngine(enginePb.LogSeverity.INFO, text, urn);
};

export function forwardConsoleToEngine(
  engineAddress: string | undefined,
  options: EngineLogOptions = { stderr: "always" },
): void {
  if (!engineAddress) return;
  // Connected with the first message: most plugin processes print none.
  let engine: InstanceType<typeof engineGrpc.EngineClient> | undefined;
  const send: Send = (severity, text, urn) => {
    if (options.stderr === "always") process.stderr.write(`${text}\n`);
    const request = new enginePb.LogRequest();
    request.setSeverity(severity);
    request.setMessage(text.replace(/^warning: /, ""));
    request.setUrn(urn);
    engine ??= new engineGrpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
    engine.log(request, (error) => {
      // Not delivered: stderr is the only place left for it.
      if (error && options.stderr === "when-undelivered") process.stderr.write(`${text}\n`);
    });
  };
  sendToEngine = send;
  console.warn = (...args: unknown[]) => send(enginePb.LogSeverity.WARNING, format(...args), "");
  console.log = (...args: unknown[]) => send(enginePb.LogSeverity.INFO, format(...args), "");
  console.info = console.log;
}
