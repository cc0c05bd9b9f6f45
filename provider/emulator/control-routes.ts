import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { EmulatorSettings, FaultRule } from "./control-types";
import { ErrorAnswer, methodNotAllowed } from "./errors";
import {
  faultProfiles,
  isFaultProfileName,
  profileRules,
  unknownProfileMessage,
} from "./fault-profiles";
import { faultRuleSchema } from "./faults";
import { readJsonBody, requireMediaType } from "./json-body";
import { sendJson } from "./responses";
import type { EmulatorRuntime } from "./runtime";
import { parseWireBody } from "./wire-validation";

export const CONTROL_PREFIX = "/__emulator/";

const settingsSchema: z.ZodType<Partial<EmulatorSettings>> = z.strictObject({
  latencyMs: z.number().int().nonnegative().optional(),
  rateLimit: z.number().int().positive().nullable().optional(),
  seed: z.number().int().optional(),
  answers: z.enum(["spec", "extended"]).optional(),
});

type ControlHandler = (
  runtime: EmulatorRuntime,
  req: IncomingMessage,
) => Promise<[number, unknown]>;

const CONTROL_ROUTES = new Map<string, ReadonlyMap<string, ControlHandler>>([
  ["state", new Map([["GET", async (runtime) => [200, runtime.store.snapshot()]]])],
  ["requests", new Map([["GET", async (runtime) => [200, runtime.log.list()]]])],
  [
    "reset",
    new Map([
      [
        "POST",
        async (runtime) => {
          runtime.reset();
          return [200, { reset: true }];
        },
      ],
    ]),
  ],
  [
    "faults",
    new Map<string, ControlHandler>([
      ["GET", async (runtime) => [200, runtime.faults.list()]],
      [
        "POST",
        async (runtime, req) => {
          const rule = parseWireBody(faultRuleSchema, await readControlJson(req));
          return [201, { id: runtime.faults.add(rule).id }];
        },
      ],
      [
        "PUT",
        async (runtime, req) => {
          const faults = faultsFromBody(await readControlJson(req));
          return [200, runtime.faults.replace(faults)];
        },
      ],
      ["DELETE", async (runtime) => [200, { cleared: runtime.faults.clear() }]],
    ]),
  ],
  ["fault-profiles", new Map([["GET", async () => [200, faultProfiles]]])],
  [
    "settings",
    new Map<string, ControlHandler>([
      ["GET", async (runtime) => [200, runtime.settings]],
      [
        "PUT",
        async (runtime, req) => {
          const patch = parseWireBody(settingsSchema, await readControlJson(req));
          return [200, runtime.updateSettings(patch)];
        },
      ],
    ]),
  ],
]);

/** Unauthenticated and never logged: it is the test's side channel, not part of the API. */
export async function handleControlRequest(
  runtime: EmulatorRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const handlers = CONTROL_ROUTES.get(path.slice(CONTROL_PREFIX.length));
  if (handlers === undefined)
    throw new ErrorAnswer(404, "not_found", `No control endpoint at ${path}.`);
  const method = req.method ?? "";
  const handler = handlers.get(method);
  if (handler === undefined) throw methodNotAllowed(method, path, [...handlers.keys()]);
  const [status, body] = await handler(runtime, req);
  sendJson(res, status, body);
}

async function readControlJson(req: IncomingMessage): Promise<unknown> {
  requireMediaType(req, "application/json");
  return readJsonBody(req);
}

/** The body of PUT /__emulator/faults: a list of profile names and rules, in the order they apply. */
function faultsFromBody(body: unknown): FaultRule[] {
  if (!Array.isArray(body)) {
    throw new ErrorAnswer(
      400,
      "invalid_body",
      'The body must be a JSON array of fault profile names and fault rules, e.g. ["rate-limited"].',
    );
  }
  return body.flatMap((item: unknown): FaultRule[] => {
    if (typeof item !== "string") return [parseWireBody(faultRuleSchema, item)];
    if (isFaultProfileName(item)) return profileRules(item);
    throw new ErrorAnswer(400, "unknown_fault_profile", unknownProfileMessage(item));
  });
}
