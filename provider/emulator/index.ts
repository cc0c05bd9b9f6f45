/**
 * `pulumi-voice-platform/emulator`: a local stand-in for the platform, serving the four
 * operations of its API exactly as strictly as this package understands the API contract
 * (docs/testing-your-stacks.md says what it enforces, and where that is its own choice), with
 * a request log, fault rules and named fault profiles. Tests start it with `startEmulator`;
 * `npx pulumi-voice-platform emulator` starts it as a command, and `connectEmulator` reaches that
 * one from a test.
 */
import { randomInt } from "node:crypto";
import type { Organization } from "./auth";
import { EmulatorClient, type EmulatorControl } from "./client";
import type { AnswerShape } from "./control-types";
import { EmulatorError } from "./errors";
import { rulesOf, type FaultsSpec } from "./fault-profiles";
import { EmulatorRuntime } from "./runtime";
import { listen } from "./server";

export { EmulatorClient, type EmulatorControl } from "./client";
export type * from "./control-types";
export { EmulatorError } from "./errors";
export {
  faultProfiles,
  faultProfileNames,
  type FaultProfile,
  type FaultProfileName,
  type FaultsSpec,
} from "./fault-profiles";
export type { RequestFields, RequestFilter } from "./request-filter";

export const DEFAULT_API_KEY = "emulator-key";
export const DEFAULT_ORGANIZATION_ID = "org_emulator";

export interface EmulatorOrganization {
  id: string;
  apiKey: string;
  subOrganizationIds?: string[];
}

export interface StartEmulatorOptions {
  /** 0 (the default) picks a free port. The emulator listens on 127.0.0.1 only. */
  port?: number;
  /** The campaigns origin's port (a second origin, as in the API); 0 picks a free one. */
  campaignsPort?: number;
  /** Several organizations, each with its own key. Excludes apiKey and subOrganizationIds. */
  organizations?: EmulatorOrganization[];
  /** Key of the single default organization "org_emulator" (default "emulator-key"). */
  apiKey?: string;
  /** The sub-organizations of that organization: the allowed `x-sub-organization-id` values. */
  subOrganizationIds?: string[];
  /** Load objects from this file if it exists and rewrite it after every change. */
  stateFile?: string;
  /** Fault profiles and rules in force from the start, and again after each reset. */
  faults?: FaultsSpec;
  /** A delay before every API request, in milliseconds. */
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
  throw new EmulatorError(
    `${ANSWERS_VARIABLE} is "${value}": set it to spec or extended, or unset it`,
  );
}

/** An emulator running in this process: its addresses, its key, its control, and `stop`. */
export interface RunningEmulator extends EmulatorControl {
  /** Voices and SIP carriers (and the control surface, under /__emulator/). */
  readonly baseUrl: string;
  /** Campaign webhooks. */
  readonly campaignsBaseUrl: string;
  /** Key of the first organization. */
  readonly apiKey: string;
  /**
   * The environment that points the provider at this emulator: VOICEPLATFORM_BASE_URL,
   * VOICEPLATFORM_CAMPAIGNS_BASE_URL and VOICEPLATFORM_API_KEY, for the `pulumi` a test runs.
   */
  readonly env: Readonly<Record<string, string>>;
  /** Closes both origins, cutting requests still held; resolves when they are closed. */
  stop(): Promise<void>;
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
    { stateFile: options.stateFile, faults: rulesOf(options.faults ?? []) },
  );
  const servers = await listen(runtime, {
    port: options.port ?? 0,
    campaignsPort: options.campaignsPort ?? 0,
  });
  const apiKey = organizations[0]!.apiKey;
  return Object.assign(new EmulatorClient(servers.baseUrl), {
    campaignsBaseUrl: servers.campaignsBaseUrl,
    apiKey,
    env: {
      VOICEPLATFORM_BASE_URL: servers.baseUrl,
      VOICEPLATFORM_CAMPAIGNS_BASE_URL: servers.campaignsBaseUrl,
      VOICEPLATFORM_API_KEY: apiKey,
    },
    stop: servers.close,
  });
}

/**
 * The control of an emulator another process started (`npx pulumi-voice-platform emulator`),
 * at the base URL it printed.
 */
export function connectEmulator(baseUrl: string): EmulatorControl {
  return new EmulatorClient(baseUrl.replace(/\/+$/, ""));
}

function organizationsFrom(options: StartEmulatorOptions): [Organization, ...Organization[]] {
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
    throw new EmulatorError(
      "startEmulator: pass either organizations or apiKey/subOrganizationIds, not both",
    );
  }
  const [first, ...others] = options.organizations.map((organization) => ({
    id: organization.id,
    apiKey: organization.apiKey,
    subOrganizationIds: organization.subOrganizationIds ?? [],
  }));
  if (first === undefined) {
    throw new EmulatorError("startEmulator: organizations is empty; give at least one");
  }
  const organizations: [Organization, ...Organization[]] = [first, ...others];
  for (const property of ["id", "apiKey"] as const) {
    const values = organizations.map((organization) => organization[property]);
    if (new Set(values).size !== values.length) {
      throw new EmulatorError(`startEmulator: each organization needs its own ${property}`);
    }
  }
  return organizations;
}
