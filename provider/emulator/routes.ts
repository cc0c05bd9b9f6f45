import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { EmulatorOrigin } from "./control-types";
import { ErrorAnswer, methodNotAllowed } from "./errors";
import type { OperationHandler } from "./operation";
import type { KindCollection } from "./state-store";

export type { StoredObject } from "./state-store";

export interface Route {
  /** The origin that serves it: the API's, or the campaigns'. */
  origin: EmulatorOrigin;
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

/**
 * What a kind's route file, routes/<kind>.ts, exports as `kindRoutes`: its paths (each with its
 * validation and answer, in its handler) and where the state holds its objects. The emulator
 * serves every file in routes/, so a new kind's routes are that one file.
 */
export interface KindRoutes extends KindCollection {
  readonly routes: readonly Route[];
}

const ROUTES_DIR = join(__dirname, "routes");

/** Every route file's routes, in file name order: sources under tsx and jest, .js once built. */
export const kindRoutes: readonly KindRoutes[] = readdirSync(ROUTES_DIR)
  .filter((name) => /\.(ts|js)$/.test(name) && !name.endsWith(".d.ts"))
  .sort()
  .map((name) => (require(join(ROUTES_DIR, name)) as { kindRoutes: KindRoutes }).kindRoutes);

/** Unknown path: 404. Known path, other method: 405 with an Allow header. */
export function matchRoute(origin: EmulatorOrigin, method: string, path: string): RouteMatch {
  const candidates: RouteMatch[] = [];
  for (const route of kindRoutes.flatMap((kind) => kind.routes)) {
    if (route.origin !== origin) continue;
    const params = matchTemplate(route.path, path);
    if (params !== undefined) candidates.push({ route, params });
  }
  if (candidates.length === 0) {
    throw new ErrorAnswer(404, "not_found", `No operation at ${path} on this origin.`);
  }
  const match = candidates.find((candidate) => candidate.route.method === method);
  if (match !== undefined) return match;
  throw methodNotAllowed(method, path, [
    ...new Set(candidates.map((candidate) => candidate.route.method)),
  ]);
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
