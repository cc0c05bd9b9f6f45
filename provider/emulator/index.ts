import { randomInt } from "node:crypto";
import type { Organization } from "./auth";
import type { AnswerShape } from "./control-types";
import { EmulatorClient } from "./client";
import { EmulatorRuntime } from "./runtime";
import { listen } from "./server";

export { EmulatorClient } from "./client";
export type * from "./control-types";

export const DEFAULT_API_KEY = "emulator-key";
export const DEFAULT_ORGANIZATION_ID = "org_emulator";

export interface EmulatorOrganization {
  id: string;
  apiKey: string;
  subOrganizationIds?: string[];
}

export interface StartEmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  campaignsPort?: number;
  /** Several organizations, each with its own key. Excludes apiKey and subOrganizationIds. */
  organizations?: EmulatorOrganization[];
  /** Key of the single default organization "org_emulator". */
  apiKey?: string;
  subOrganizationIds?: string[];
  /** Load objects from this file if it exists and rewrite it after every change. */
  stateFile?: string;
  latencyMs?: number;
  /** Requests per second (token bucket, burst of the same size); null or absent: unlimited. */
  rateLimit?: number | null;
  /** Seed of the PRNG behind probabilistic faults; random when absent. */
  seed?: number;
  /**
   * What answers hold: "spec" (the default) only the fields api-spec.md shows, "extended" more.
   * Absent: VOICEPLATFORM_EMULATOR_ANSWERS, else "spec".
   */
  answers?: AnswerShape;
}

const ANSWERS_VARIABLE = "VOICEPLATFORM_EMULATOR_ANSWERS";

/** The answer shape asked for, or the one the environment names (spec when it names none). */
export function answerShape(asked: AnswerShape | undefined): AnswerShape {
  const value = asked ?? process.env[ANSWERS_VARIABLE] ?? "spec";
  if (value === "spec" || value === "extended") return value;
  throw new Error(`${ANSWERS_VARIABLE} is "${value}": set it to spec or extended, or unset it`);
}

export interface RunningEmulator {
  baseUrl: string;
  campaignsBaseUrl: string;
  /** Key of the first organization. */
  apiKey: string;
  client: EmulatorClient;
  close(): Promise<void>;
}

export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const organizations = organizationsFrom(options);
  const runtime = new EmulatorRuntime(
    organizations,
    {
      latencyMs: options.latencyMs ?? 0,
      rateLimit: options.rateLimit ?? null,
      seed: options.seed ?? randomInt(2 ** 31),
      answers: answerShape(options.answers),
    },
    options.stateFile,
  );
  const servers = await listen(runtime, {
    port: options.port ?? 0,
    campaignsPort: options.campaignsPort ?? 0,
  });
  const firstOrganization = organizations[0];
  if (firstOrganization === undefined) throw new Error("no organization configured");
  return {
    baseUrl: servers.baseUrl,
    campaignsBaseUrl: servers.campaignsBaseUrl,
    apiKey: firstOrganization.apiKey,
    client: new EmulatorClient(servers.baseUrl),
    close: servers.close,
  };
}

function organizationsFrom(options: StartEmulatorOptions): Organization[] {
  if (options.organizations === undefined) {
    return [
      {
        id: DEFAULT_ORGANIZATION_ID,
        apiKey: options.apiKey ?? DEFAULT_API_KEY,
        subOrganizationIds: options.subOrganizationIds ?? [],
      },
    ];
  }
  if (options.apiKey !== undefined || options.subOrganizationIds !== undefined) {
    throw new Error("pass either organizations or apiKey/subOrganizationIds, not both");
  }
  if (options.organizations.length === 0) throw new Error("organizations must not be empty");
  const organizations = options.organizations.map((organization) => ({
    id: organization.id,
    apiKey: organization.apiKey,
    subOrganizationIds: organization.subOrganizationIds ?? [],
  }));
  for (const property of ["id", "apiKey"] as const) {
    const values = organizations.map((organization) => organization[property]);
    if (new Set(values).size !== values.length) {
      throw new Error(`organization ${property} values must be unique`);
    }
  }
  return organizations;
}
