/**
 * What the handlers print reaches the user through the engine's log, attached to the resource
 * being worked on (`withResource` in core/provider-log): the engine does not show a provider plugin's console output, and shows a
 * dynamic provider's on the stack instead of the resource. Warnings (`console.warn`) become engine
 * warnings and other console output engine info. Both front ends use it: the plugin process and,
 * inside the dynamic-provider process, the dynamic resources' handlers.
 */
import { format } from "node:util";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import { currentResource } from "../core/provider-log";
import { engineGrpc, enginePb, grpc } from "./pulumi-protocol";

export interface EngineLogOptions {
  /**
   * "always" (the plugin: its stderr is found when no engine listens, a test driving the
   * process), or "when-undelivered" (the dynamic provider, whose stderr the engine shows too).
   */
  readonly stderr: "always" | "when-undelivered";
}

export function forwardConsoleToEngine(
  engineAddress: string | undefined,
  options: EngineLogOptions = { stderr: "always" },
): void {
  if (!engineAddress) return;
  // Connected with the first message: most plugin processes print none.
  let engine: InstanceType<typeof engineGrpc.EngineClient> | undefined;
  const send = (severity: EnginePb.LogSeverity, args: unknown[]) => {
    const text = format(...args);
    if (options.stderr === "always") process.stderr.write(`${text}\n`);
    const request = new enginePb.LogRequest();
    request.setSeverity(severity);
    request.setMessage(text.replace(/^warning: /, ""));
    request.setUrn(currentResource());
    engine ??= new engineGrpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
    engine.log(request, (error) => {
      // Not delivered: stderr is the only place left for it.
      if (error && options.stderr === "when-undelivered") process.stderr.write(`${text}\n`);
    });
  };
  console.warn = (...args: unknown[]) => send(enginePb.LogSeverity.WARNING, args);
  console.log = (...args: unknown[]) => send(enginePb.LogSeverity.INFO, args);
  console.info = console.log;
}
