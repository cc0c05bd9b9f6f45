import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { authenticate, claimedCaller } from "./auth";
import type {
  ActiveFaultRule,
  EmulatorOrigin,
  FaultAction,
  RequestLogEntry,
} from "./control-types";
import { echoAnswer } from "./echo-fault";
import { ErrorAnswer } from "./errors";
import { readBodyText } from "./json-body";
import type { PreparedOperation } from "./operation";
import { sendError, sendJson, sendText } from "./responses";
import { matchRoute } from "./routes";
import type { EmulatorRuntime } from "./runtime";

/**
 * One API request, in order: global latency, rate limit, routing (404/405), faults that act
 * before processing, authentication (401/403), validation, faults that act after validation,
 * then storing and answering.
 */
export async function handleApiRequest(
  runtime: EmulatorRuntime,
  origin: EmulatorOrigin,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  requestId: string,
): Promise<void> {
  const logEntry = runtime.log.start(
    req,
    { path, origin, requestId },
    claimedCaller(req, runtime.organizations),
  );
  res.on("finish", () => {
    logEntry.status = res.statusCode;
  });
  const signal = abandonedSignal(runtime, res, logEntry);
  try {
    await waitUnlessAbandoned(runtime.settings.latencyMs, signal);
    const rate = runtime.takeRateToken();
    if (!rate.allowed) {
      throw new ErrorAnswer(
        429,
        "rate_limited",
        `Rate limit of ${runtime.settings.rateLimit} requests per second exceeded.`,
        undefined,
        { "retry-after": String(rate.retryAfterSeconds) },
      );
    }
    const method = req.method ?? "";
    const { route, params } = matchRoute(origin, method, path);
    const target = { method, path, routeId: route.id };

    const before = runtime.faults.take("before", target);
    if (before !== undefined) {
      recordFault(logEntry, before);
      const action = before.action;
      if (action.kind === "status") throw injectedStatus(before.id, action, method, path);
      if (action.kind === "echo") {
        const echoed = echoAnswer(
          action.forms,
          action.as ?? "json",
          await readBodyText(req),
          req.headers.authorization ?? "",
          action.fields,
        );
        res.writeHead(action.status, { "content-type": echoed.contentType });
        res.end(echoed.text);
        return;
      }
      if (action.kind === "hang") return;
      if (action.kind === "reset-before") {
        cutConnection(req, res);
        return;
      }
      if (action.kind === "latency") {
        await waitUnlessCleared(action.ms, signal, runtime.faults.clearedSignal);
      }
    }

    const caller = authenticate(req, runtime.organizations);
    const prepared = await route.handler({
      req,
      caller,
      params,
      store: runtime.store,
      logEntry,
      answers: runtime.settings.answers,
    });
    if (signal.aborted) return;

    const after = runtime.faults.take("after", target);
    if (after !== undefined) recordFault(logEntry, after);
    answer(prepared, after, req, res);
  } catch (error) {
    if (signal.aborted || res.destroyed) return;
    if (error instanceof ErrorAnswer) {
      sendError(res, error);
      return;
    }
    console.error(`emulator: ${req.method} ${path} failed`, error);
    sendError(res, new ErrorAnswer(500, "internal_error", "The emulator failed; see its output."));
  }
}

function answer(
  prepared: PreparedOperation,
  fault: ActiveFaultRule | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  switch (fault?.action.kind) {
    case "reset-after":
      prepared.commit();
      cutConnection(req, res);
      return;
    case "malformed-json": {
      const text = JSON.stringify(prepared.commit());
      // A strict prefix of a JSON object or array never parses.
      sendText(
        res,
        prepared.successStatus,
        text.slice(0, Math.max(1, Math.floor(text.length / 2))),
      );
      return;
    }
    case "empty-clone":
      sendJson(res, prepared.successStatus, []);
      return;
    case "data-false":
      sendJson(res, prepared.successStatus, { status: "success", data: false });
      return;
    default:
      sendJson(res, prepared.successStatus, prepared.commit());
  }
}

function injectedStatus(
  ruleId: string,
  action: Extract<FaultAction, { kind: "status" }>,
  method: string,
  path: string,
): ErrorAnswer {
  return new ErrorAnswer(
    action.status,
    action.status === 429 ? "rate_limited" : "injected_fault",
    `Injected fault ${ruleId}: status ${action.status} for ${method} ${path}.`,
    undefined,
    action.retryAfterSeconds === undefined
      ? {}
      : { "retry-after": String(action.retryAfterSeconds) },
  );
}

function recordFault(logEntry: RequestLogEntry, rule: ActiveFaultRule): void {
  logEntry.fault = { ruleId: rule.id, kind: rule.action.kind };
}

/** Connections the emulator cut itself (reset faults): their clients did not leave. */
const cutByEmulator = new WeakSet<ServerResponse>();

function cutConnection(req: IncomingMessage, res: ServerResponse): void {
  cutByEmulator.add(res);
  req.socket.destroy();
}

/**
 * Aborts when the client goes away before an answer, or when the emulator closes. A request its
 * client left is processed no further, whatever it waited for: nothing is stored for it.
 */
function abandonedSignal(
  runtime: EmulatorRuntime,
  res: ServerResponse,
  logEntry: RequestLogEntry,
): AbortSignal {
  const clientGone = new AbortController();
  res.on("close", () => {
    if (res.writableFinished) return;
    if (!cutByEmulator.has(res)) logEntry.abandoned = true;
    clientGone.abort();
  });
  return AbortSignal.any([clientGone.signal, runtime.closingSignal]);
}

async function waitUnlessAbandoned(ms: number, signal: AbortSignal): Promise<void> {
  if (ms > 0) await delay(ms, undefined, { signal });
}

/**
 * A latency fault's wait, which clearing the faults ends early: a test holds requests for as long
 * as its checks take, then releases them, instead of guessing how long the checks need.
 */
async function waitUnlessCleared(
  ms: number,
  abandoned: AbortSignal,
  cleared: AbortSignal,
): Promise<void> {
  if (ms <= 0 || cleared.aborted) return;
  try {
    await delay(ms, undefined, { signal: AbortSignal.any([abandoned, cleared]) });
  } catch (error) {
    if (abandoned.aborted || !cleared.aborted) throw error;
  }
}
