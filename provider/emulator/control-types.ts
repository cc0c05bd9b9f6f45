/**
 * Shapes returned by the operations and by the `/__emulator/` control surface. Kept apart from
 * the server code so the typed client can import them without pulling in the server.
 */

/** The one error body every emulator response uses, API and control surface alike. */
export interface ErrorBody {
  error: {
    status: number;
    code: string;
    message: string;
    /** The wire field at fault, as a path: "settings.similarity_boost", "gateways[0].netmask". */
    field?: string;
  };
}

export interface VoiceSample {
  filename: string;
  size: number;
  sha256: string;
}

export interface VoiceSettings {
  stability: number;
  similarity_boost: number;
  speed: number;
  style: number;
}

export interface Voice {
  id: string;
  voiceId: string;
  name: string;
  description: string;
  organizationId: string;
  subOrganizationId: string | null;
  providerType: string;
  settings: VoiceSettings;
  isMultilingual: boolean;
  supportedLocales: string[];
  subAccounts: boolean;
  supportsAllLanguages: boolean;
  ttsClient: string;
  samples: VoiceSample[];
}

export interface SipGateway {
  outbound?: boolean;
  inbound?: boolean;
  ipv4?: string;
  netmask?: number;
  port?: number;
  protocol?: string;
  send_options_ping?: boolean;
  use_sips_scheme?: boolean;
  pad_crypto?: boolean;
  sip_gateway_sid?: string;
}

export interface SipPhoneNumber {
  phone_number_sid?: string;
  phone_number?: string;
}

/** The carrier fields exactly as the create request sent them. */
export interface SipCarrierFields {
  name: string;
  register_username?: string;
  register_password?: string;
  requires_register?: boolean;
  register_sip_realm?: string;
  register_from_user?: string;
  register_from_domain?: string;
  register_public_ip_in_contact?: boolean;
  tech_prefix?: string;
  diversion?: string;
  e164_leading_plus?: boolean;
  gateways?: SipGateway[];
  phoneNumbers?: SipPhoneNumber[];
  outbound_sip_proxy?: string;
  updatedBy?: string;
}

export interface StoredCarrier extends SipCarrierFields {
  id: string;
  organizationId: string;
  subOrganizationId: string | null;
}

export interface NameValue {
  name: string;
  value: string;
}

export interface AdvancedWebhook {
  url?: string;
  method?: string;
  headers?: NameValue[];
  parameters?: NameValue[];
  body?: string;
}

export interface StoredSubscription {
  id: string;
  campaignId: string;
  organizationId: string;
  subOrganizationId: string | null;
  url: string;
  /** null when the request left `events` out: the contract does not say what that means. */
  events: string[] | null;
  isAdvanced: boolean;
  advancedWebhook: AdvancedWebhook | null;
}

/** One organization's objects, a collection for each kind the emulator serves (routes/<kind>.ts). */
export interface OrganizationState {
  voices: Voice[];
  carriers: StoredCarrier[];
  /** Keyed by campaign id, in subscription order. */
  subscriptions: Record<string, StoredSubscription[]>;
  /** A kind's collection, as its route file shows it (a list unless it says otherwise). */
  [collection: string]: unknown;
}

/** Secrets appear as "[redacted]". */
export interface EmulatorState {
  organizations: Record<string, OrganizationState>;
}

export type EmulatorOrigin = "api" | "campaigns";

export interface LoggedFile {
  field: string;
  filename: string;
  size: number;
  sha256: string;
}

export interface LoggedMultipart {
  fields: Record<string, string>;
  files: LoggedFile[];
}

export interface LoggedFault {
  ruleId: string;
  kind: FaultAction["kind"];
}

export interface RequestLogEntry {
  requestId: string;
  receivedAt: string;
  method: string;
  path: string;
  origin: EmulatorOrigin;
  /** The organization whose API key the request carried; null when it carried no known key. */
  organizationId: string | null;
  /** Its x-sub-organization-id, once checked to belong to that organization; else null. */
  subOrganizationId: string | null;
  /** null while pending and when no response was sent (hang, socket reset, client gone). */
  status: number | null;
  /**
   * True once the client went away before the answer: the request is not processed any further
   * and stores nothing, as on a platform that rolls back on a dropped connection.
   */
  abandoned?: true;
  /** Header names lowercase; Authorization and other credentials appear as "[redacted]". */
  headers: Record<string, string | string[]>;
  /** The decoded JSON body with secrets redacted, when it was JSON. */
  body?: unknown;
  multipart?: LoggedMultipart;
  fault: LoggedFault | null;
}

/** How an echo fault writes back what it was sent, applied in order. */
export type EchoTransform =
  | "lower"
  | "upper"
  | "upper-tr"
  | "lower-tr"
  | "upper-el"
  | "lower-lt"
  | "percent"
  | "percent-lower-hex"
  | "form"
  | "js-escape"
  | "json"
  | "json-ascii"
  | "python-ascii"
  | "python-bytes"
  | "octal"
  | "html"
  | "htmlentities"
  | "html-legacy-bare"
  | "html-zero-padded";

/** One way of quoting each echoed piece: the transforms, and text written around it. */
export interface EchoForm {
  transforms: EchoTransform[];
  before: string;
  after: string;
}

export type FaultAction =
  | { kind: "status"; status: number; retryAfterSeconds?: number }
  /**
   * Answers `status` with what it was sent quoted back in each of `forms`: the Authorization
   * header, every string value of a JSON body and the raw body, as JSON (`error.message`) or text.
   * With `fields`, only the Authorization header and the string values of those fields of the
   * body (wherever they are), so a message cut short still quotes them.
   */
  | { kind: "echo"; status: number; forms: EchoForm[]; as?: "json" | "text"; fields?: string[] }
  | { kind: "latency"; ms: number }
  | { kind: "hang" }
  | { kind: "reset-before" }
  | { kind: "reset-after" }
  | { kind: "malformed-json" }
  | { kind: "empty-clone" }
  | { kind: "data-false" };

export interface FaultRule {
  /** HTTP method, or "*" for any. */
  method: string;
  /** An exact path, or a pattern where `*` stands for one path segment: `/voices/*`. */
  path: string;
  /** Apply to the next `times` matching requests, then expire. Unlimited when absent. */
  times?: number;
  /** Chance (0..1) that a matching request is hit, drawn from the emulator's seeded PRNG. */
  probability?: number;
  action: FaultAction;
}

export interface ActiveFaultRule extends FaultRule {
  id: string;
  /** How many requests the rule has hit so far. */
  applied: number;
}

export interface EmulatorSettings {
  /** Delay added to every API request before it is processed. */
  latencyMs: number;
  /** Token bucket size and refill per second; null disables rate limiting. */
  rateLimit: number | null;
  /** Seed of the PRNG behind probabilistic faults. */
  seed: number;
  /**
   * "spec": answers hold only the fields api-spec.md shows (a voice's settings: stability and
   * style). "extended": every stored field plus fields no spec names, as a richer platform might.
   */
  answers: AnswerShape;
}

export type AnswerShape = "spec" | "extended";
