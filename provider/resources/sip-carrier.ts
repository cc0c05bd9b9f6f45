import { stateOfCreated } from "../core/created-object";
import { z } from "zod";
import { checkedInputs, checkResource, describeValue, onEveryObject } from "../core/check";
import { diffInputs, sortedSet, type DiffPlan } from "../core/diff";
import { containsUnknown } from "../core/engine-values";
import { hostOrIpv4, ipv4Address, pathId, subOrganizationId, text } from "../core/input-rules";
import { warnStaysOnPlatform } from "../core/provider-log";
import { namedSecretValues } from "../core/secret-paths";
import type { Inputs, ResourceDescriptor } from "../core/resource-descriptor";
import { callApi } from "../platform/http-client";

const port = z.number().int("must be a whole number").min(1).max(65535);
const netmask = z.number().int("must be a whole number").min(0).max(32);

/**
 * The spec requires no field of a gateway or a number, but an item with neither its value nor
 * the platform's identifier of one names nothing.
 */
function requireOneOf<Item extends object>(
  ctx: z.RefinementCtx,
  item: Item,
  value: keyof Item & string,
  identifier: keyof Item & string,
  valueDescription: string,
): void {
  if (item[value] !== undefined || item[identifier] !== undefined) return;
  ctx.addIssue({
    code: "custom",
    path: [value],
    message: `is missing: give ${valueDescription}, or ${identifier} for one the platform already knows`,
  });
}

const SipGateway = z
  .strictObject({
    outbound: z.boolean().optional().describe("Used for outbound calls."),
    inbound: z
      .boolean()
      .optional()
      .describe("Used for inbound calls; an inbound gateway needs a literal IPv4 address."),
    ipv4: hostOrIpv4
      .optional()
      .describe(
        "IPv4 address (an outbound-only gateway may use a hostname); give it or sipGatewaySid.",
      ),
    netmask: netmask.optional().describe("Network mask length in bits, 0–32."),
    port: port.optional().describe("SIP port, 1–65535."),
    protocol: text.optional().describe("Transport protocol, e.g. udp."),
    sendOptionsPing: z
      .boolean()
      .optional()
      .describe("Whether to send SIP OPTIONS pings to the gateway."),
    useSipsScheme: z
      .boolean()
      .optional()
      .describe("Whether to use sips: URIs towards the gateway."),
    padCrypto: z.boolean().optional().describe("Whether to pad SRTP crypto attributes."),
    sipGatewaySid: text.optional().describe("Identifier of the gateway."),
  })
  .superRefine((gateway, ctx) => {
    requireOneOf(ctx, gateway, "ipv4", "sipGatewaySid", "the gateway's address (ipv4)");
    // A mistyped ipv4 has its own failure.
    if (
      gateway.inbound === true &&
      typeof gateway.ipv4 === "string" &&
      !ipv4Address.safeParse(gateway.ipv4).success
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["ipv4"],
        message: `must be a literal IPv4 address for an inbound gateway, such as 203.0.113.10, not ${describeValue(gateway.ipv4)}`,
      });
    }
  }, onEveryObject)
  .describe("One SIP gateway of a carrier: where its calls go to or come from.");

const SipPhoneNumber = z
  .strictObject({
    phoneNumber: text
      .optional()
      .describe("The number, preferably E.164 (+14155550100); give it or phoneNumberSid."),
    phoneNumberSid: text.optional().describe("Identifier of the number."),
  })
  .superRefine((number, ctx) => {
    requireOneOf(
      ctx,
      number,
      "phoneNumber",
      "phoneNumberSid",
      "the number (phoneNumber, e.g. +14155550100)",
    );
  }, onEveryObject)
  .describe("One phone number of a carrier.");

/** The registration password: write-only on the platform, encrypted in state. */
const secretInputs = ["registerPassword"];

/** The inputs as the provider receives them, validated. */
export const SipCarrierInputs = z.strictObject({
  name: text.describe(
    "Carrier name. Required here though the spec leaves it open: preflight finds an interrupted create on the platform by it.",
  ),
  registerUsername: z.string().optional().describe("Registration username."),
  registerPassword: z
    .string()
    .optional()
    .describe("Registration password; stored encrypted as a secret."),
  requiresRegister: z.boolean().optional().describe("Whether the carrier needs SIP registration."),
  registerSipRealm: z.string().optional().describe("SIP realm of the registration."),
  registerFromUser: z
    .string()
    .optional()
    .describe("User part of the From header of the registration."),
  registerFromDomain: z
    .string()
    .optional()
    .describe("Domain of the From header of the registration."),
  registerPublicIpInContact: z
    .boolean()
    .optional()
    .describe("Whether the registration's Contact carries the public IP address."),
  techPrefix: z.string().optional().describe("Prefix dialled before outbound numbers."),
  diversion: z.string().optional().describe("Diversion header value for outbound calls."),
  e164LeadingPlus: z
    .boolean()
    .optional()
    .describe("Whether outbound numbers get a leading plus (E.164)."),
  gateways: z.array(SipGateway).optional().describe("Gateways; order does not matter."),
  phoneNumbers: z
    .array(SipPhoneNumber)
    .optional()
    .describe("Phone numbers; order does not matter."),
  outboundSipProxy: z.string().optional().describe("SIP proxy for outbound calls."),
  updatedBy: z
    .string()
    .optional()
    .describe(
      "The carrier's updatedBy field, sent as given (the spec does not say what the platform does with it).",
    ),
  existingCarrierId: pathId
    .optional()
    .describe(
      "Record this existing carrier instead of creating one (no call is made: the API has no read).",
    ),
  subOrganizationId: subOrganizationId
    .optional()
    .describe("Sub-organization to act for; defaults to voiceplatform:subOrganizationId."),
});
export type SipCarrierInputs = z.infer<typeof SipCarrierInputs>;

const inputKeys = Object.keys(SipCarrierInputs.shape);

/** There is no update operation, so every input replaces the carrier. */
export const sipCarrierDiffPlan: DiffPlan = {
  keys: inputKeys,
  replaceKeys: new Set(inputKeys),
  setKeys: new Set(["gateways", "phoneNumbers"]),
};

/**
 * What the resource stores. States carry no version: the only shape so far, with or without the
 * `stateVersion: 1` the first releases wrote; a later shape would add a hidden `__stateVersion`.
 */
export interface SipCarrierState extends SipCarrierInputs {
  readonly carrierId: string;
}

const CreatedCarrier = z.looseObject({ id: z.string().min(1) });

/** The create body (section 4.3): snake_case, but `phoneNumbers` and `updatedBy` as the spec spells them. */
export function toCarrierBody(inputs: SipCarrierInputs): Record<string, unknown> {
  return dropUndefined({
    name: inputs.name,
    register_username: inputs.registerUsername,
    register_password: inputs.registerPassword,
    requires_register: inputs.requiresRegister,
    register_sip_realm: inputs.registerSipRealm,
    register_from_user: inputs.registerFromUser,
    register_from_domain: inputs.registerFromDomain,
    register_public_ip_in_contact: inputs.registerPublicIpInContact,
    tech_prefix: inputs.techPrefix,
    diversion: inputs.diversion,
    e164_leading_plus: inputs.e164LeadingPlus,
    gateways: inputs.gateways?.map((gateway) =>
      dropUndefined({
        outbound: gateway.outbound,
        inbound: gateway.inbound,
        ipv4: gateway.ipv4,
        netmask: gateway.netmask,
        port: gateway.port,
        protocol: gateway.protocol,
        send_options_ping: gateway.sendOptionsPing,
        use_sips_scheme: gateway.useSipsScheme,
        pad_crypto: gateway.padCrypto,
        sip_gateway_sid: gateway.sipGatewaySid,
      }),
    ),
    phoneNumbers: inputs.phoneNumbers?.map((number) =>
      dropUndefined({ phone_number_sid: number.phoneNumberSid, phone_number: number.phoneNumber }),
    ),
    outbound_sip_proxy: inputs.outboundSipProxy,
    updatedBy: inputs.updatedBy,
  });
}

function dropUndefined(record: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key in record) if (record[key] !== undefined) kept[key] = record[key];
  return kept;
}

/** Gateways and numbers as sets. */
export function normalizeSipCarrierInputs(news: Inputs): Inputs {
  const result: Inputs = { ...news };
  for (const key of ["gateways", "phoneNumbers"] as const) {
    const list = news[key];
    if (Array.isArray(list) && !containsUnknown(list)) result[key] = sortedSet(list);
  }
  return result;
}

const knownProtocols = ["udp", "tcp", "tls", "tls/srtp"];
const lengthCaps = { name: 64, techPrefix: 16, diversion: 32, outboundSipProxy: 255 } as const;

/** Rules jambonz (whose carrier model this API follows) enforces, but the spec does not: said, never enforced. */
function sipCarrierWarnings(inputs: SipCarrierInputs): string[] {
  const at = `SipCarrier "${inputs.name}"`;
  const warnings: string[] = [];
  if (inputs.requiresRegister === true && (!inputs.registerUsername || !inputs.registerPassword)) {
    warnings.push(
      `${at}: requiresRegister is true but registerUsername or registerPassword is empty; registration will likely fail`,
    );
  }
  if (inputs.registerUsername !== undefined && /\s/.test(inputs.registerUsername)) {
    warnings.push(
      `${at}: registerUsername contains whitespace, which SIP registrars usually reject`,
    );
  }
  for (const key of ["registerSipRealm", "registerFromDomain"] as const) {
    if (inputs[key]?.toLowerCase().startsWith("sip:")) {
      warnings.push(`${at}: ${key} starts with "sip:"; give the bare domain or IPv4 address`);
    }
  }
  for (const [key, cap] of Object.entries(lengthCaps)) {
    const value = inputs[key as keyof typeof lengthCaps];
    if (typeof value === "string" && value.length > cap) {
      warnings.push(
        `${at}: ${key} is ${value.length} characters; carriers in this model allow ${cap}`,
      );
    }
  }
  const seen = new Set<string>();
  inputs.gateways?.forEach((gateway, index) => {
    if (gateway.protocol !== undefined && !knownProtocols.includes(gateway.protocol)) {
      warnings.push(
        `${at}: gateways[${index}].protocol "${gateway.protocol}" is not one of ${knownProtocols.join(", ")}`,
      );
    }
    if (gateway.netmask === 0)
      warnings.push(`${at}: gateways[${index}].netmask 0 matches every address`);
    if (gateway.ipv4 === undefined) return;
    if (gateway.inbound !== true && !ipv4Address.safeParse(gateway.ipv4).success) {
      warnings.push(
        `${at}: gateways[${index}].ipv4 "${gateway.ipv4}" is a hostname; the spec asks for an IPv4 address`,
      );
    }
    const endpoint = `${gateway.ipv4}:${gateway.port ?? 5060}`;
    if (seen.has(endpoint)) warnings.push(`${at}: two gateways point at ${endpoint}`);
    seen.add(endpoint);
  });
  inputs.phoneNumbers?.forEach((number, index) => {
    if (number.phoneNumber !== undefined && !/^\+?[1-9]\d{6,14}$/.test(number.phoneNumber)) {
      warnings.push(
        `${at}: phoneNumbers[${index}].phoneNumber "${number.phoneNumber}" is not in E.164 form (+14155550100)`,
      );
    }
  });
  return warnings;
}

/** Reads any stored shape this package ever wrote. */
export function readSipCarrierState(olds: Inputs): SipCarrierState {
  const { stateVersion: _firstReleases, ...state } = olds;
  return state as unknown as SipCarrierState;
}

function label(inputs: { name?: unknown }): string {
  return typeof inputs.name === "string" ? `SIP carrier "${inputs.name}"` : "SIP carrier";
}

const stateAfterCreate = async (id: string, news: Inputs): Promise<SipCarrierState> => ({
  ...checkedInputs(SipCarrierInputs, news),
  carrierId: id,
});

async function create(news: Inputs): Promise<{ id: string; state: SipCarrierState }> {
  const inputs = SipCarrierInputs.parse(news);
  const existing = inputs.existingCarrierId;
  if (existing !== undefined)
    return { id: existing, state: await stateAfterCreate(existing, inputs) };
  const response = await callApi({
    operation: `create ${label(inputs)}`,
    method: "POST",
    origin: "api",
    path: "/organization/sip",
    json: toCarrierBody(inputs),
    subOrganizationId: inputs.subOrganizationId,
    secrets: namedSecretValues(inputs, secretInputs),
    idempotent: false,
    unknownOutcomeHint:
      `The platform may have created ${label(inputs)} although this call failed. Look for it on the platform ` +
      "before running `pulumi up` again: record it with existingCarrierId instead of creating a second one",
    answer: { schema: CreatedCarrier, problem: () => "the answer carries no carrier id" },
  });
  const id = response.body.id;
  const state = await stateOfCreated(id, { ...inputs, carrierId: id }, () =>
    stateAfterCreate(id, inputs),
  );
  return { id, state };
}

/** A gateway as preflight shows it: `203.0.113.10:5060/udp (inbound, outbound)`. */
function showGateway(value: unknown, show: (value: unknown) => string): string {
  if (value === null || typeof value !== "object" || !("ipv4" in value || "port" in value))
    return show(value);
  const g = value as Record<string, unknown>;
  const roles = [g.inbound === true ? "inbound" : "", g.outbound === true ? "outbound" : ""].filter(
    Boolean,
  );
  return `${show(g.ipv4)}:${show(g.port ?? 5060)}/${show(g.protocol ?? "udp")}${roles.length > 0 ? ` (${roles.join(", ")})` : ""}`;
}

const showList =
  (item: (value: unknown, show: (value: unknown) => string) => string, separator: string) =>
  (list: unknown, show: (value: unknown) => string) =>
    Array.isArray(list) ? list.map((value) => item(value, show)).join(separator) : show(list);

export const sipCarrier: ResourceDescriptor<SipCarrierState, "SipCarrier"> = {
  type: "SipCarrier",
  summary:
    "A SIP carrier (trunk) with registration credentials, gateways and phone numbers. The API has no update, so changing any input replaces it.",
  importId:
    "the carrier's id as the create answered it: `pulumi import voiceplatform:index:SipCarrier main-trunk <id>`",
  inputSchema: SipCarrierInputs,
  objectTypes: { gateways: "SipGateway", phoneNumbers: "SipPhoneNumber" },
  outputs: [
    {
      name: "carrierId",
      description: "The carrier's id on the platform.",
      type: { type: "string" },
      always: true,
      writtenBy: "create",
    },
  ],
  secretInputs,
  // The API's snake_case name, and the input's own should a complaint echo it.
  secretWireFields: ["register_password", "registerPassword"],
  check: (_olds, news, context) =>
    checkResource(
      {
        type: "SipCarrier",
        schema: SipCarrierInputs,
        secretPaths: secretInputs,
        warnings: sipCarrierWarnings,
        normalize: normalizeSipCarrierInputs,
      },
      news,
      context,
    ),
  diff: async (_id, olds, news) => diffInputs(readSipCarrierState(olds), news, sipCarrierDiffPlan),
  create,
  // Only reached when nothing the platform holds changes; it records the new inputs.
  update: async (id, olds, news) => ({
    ...readSipCarrierState(olds),
    ...checkedInputs(SipCarrierInputs, news),
    carrierId: id,
  }),
  delete: async (id, olds, context) => warnStaysOnPlatform(`${label(olds)} (${id})`, context),
  adoptWith: (id) =>
    `existingCarrierId: ${JSON.stringify(id)} (its create records that carrier without a call)`,
  stateAfterCreate,
  outputsFromId: (id) => ({ carrierId: id }),
  recovery: {
    lookFor: "a SIP carrier on the platform with",
    idLabel: "carrier id",
    identifyingInputs: [
      "name",
      "gateways",
      "phoneNumbers",
      "registerUsername",
      "existingCarrierId",
    ],
    showInput: {
      gateways: showList(showGateway, "; "),
      phoneNumbers: showList(
        (number, show) => show((number as { phoneNumber?: unknown } | null)?.phoneNumber ?? number),
        ", ",
      ),
    },
    // An adopted carrier's create records existingCarrierId without a call.
    knownId: (inputs) =>
      typeof inputs.existingCarrierId === "string" ? inputs.existingCarrierId : undefined,
    knownIdSays: "its create records existingCarrierId without a call",
    idProblem: (id, inputs) => {
      const existing = inputs.existingCarrierId;
      return typeof existing === "string" && id !== existing
        ? `is ${JSON.stringify(id)}, but this carrier is declared with existingCarrierId ${JSON.stringify(existing)}, which its create records without a call: use that id`
        : undefined;
    },
  },
};
