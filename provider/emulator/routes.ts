import { subscribeWebhook } from "./campaign-routes";
import type { EmulatorOrigin } from "./control-types";
import { ErrorAnswer } from "./errors";
import type { OperationHandler } from "./operation";
import { createSipCarrier } from "./sip-routes";
import { cloneVoice, updateVoice } from "./voice-routes";

export interface Route {
  id: string;
  method: string;
  /** Path template; `:name` segments become params. */
  path: string;
  handler: OperationHandler;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

const ROUTES_BY_ORIGIN: Record<EmulatorOrigin, readonly Route[]> = {
  api: [
    { id: "voice-clone", method: "POST", path: "/voices/voice-clone", handler: cloneVoice },
    { id: "voice-update", method: "PUT", path: "/voices/:id", handler: updateVoice },
    { id: "sip-create", method: "POST", path: "/organization/sip", handler: createSipCarrier },
  ],
  campaigns: [
    {
      id: "webhook-subscribe",
      method: "POST",
      path: "/campaigns/:campaignId/webhook/subscribe",
      handler: subscribeWebhook,
    },
  ],
};

/** Unknown path: 404. Known path, other method: 405 with an Allow header. */
export function matchRoute(origin: EmulatorOrigin, method: string, path: string): RouteMatch {
  const candidates: RouteMatch[] = [];
  for (const route of ROUTES_BY_ORIGIN[origin]) {
    const params = matchTemplate(route.path, path);
    if (params !== undefined) candidates.push({ route, params });
  }
  if (candidates.length === 0) {
    throw new ErrorAnswer(404, "not_found", `No operation at ${path} on this origin.`);
  }
  const match = candidates.find((candidate) => candidate.route.method === method);
  if (match !== undefined) return match;
  const allowed = [...new Set(candidates.map((candidate) => candidate.route.method))].join(", ");
  throw new ErrorAnswer(
    405,
    "method_not_allowed",
    `${method} is not allowed on ${path}; allowed: ${allowed}.`,
    undefined,
    { allow: allowed },
  );
}

function matchTemplate(template: string, path: string): Record<string, string> | undefined {
  const expected = template.split("/");
  const actual = path.split("/");
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    const value = actual[index] ?? "";
    if (segment.startsWith(":")) {
      if (value === "") return undefined;
      try {
        params[segment.slice(1)] = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    } else if (segment !== value) {
      return undefined;
    }
  }
  return params;
}
