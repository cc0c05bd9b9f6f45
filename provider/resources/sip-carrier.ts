import { z } from "zod";
import { stateOfCreated } from "../core/created-object";
import { withFieldsRules, type FieldsRule } from "../core/declared-rules";
import { requestBody } from "../core/field-facts";
import {
  e164Number,
  hostOrIpv4,
  IPV4,
  ipv4Address,
  pathId,
  subOrganizationId,
  text,
} from "../core/input-rules";
import { filledIn, warnStaysOnPlatform } from "../core/provider-log";
import { defineResource, type ProviderContext, type StateOf } from "../core/resource-descriptor";
import { namedSecretValues } from "../core/secret-paths";

const port = z.number().int("must be a whole number").min(1).max(65535);
const netmask = z.number().int("must be a whole number").min(0).max(32);

/**
 * The spec requires no field of a gateway or a number, but an item with neither its value nor
 * the platform's identifier of one names nothing.
 */
function oneOf(field: string, or: string, valueDescription: string): FieldsRule {
  return {
    rule: "requiresOneOf",
    field,
    or,
    message: `is missing: give ${valueDescription}, or ${or} for one the platform already knows`,
  };
}

const SipGateway = withFieldsRules(
  z.strictObject({
    outbound: z
      .boolean()
      .optional()
      .meta({ description: "Used for outbound calls.", wire: "outbound" }),
    inbound: z.boolean().optional().meta({
      description: "Used for inbound calls; an inbound gateway needs a literal IPv4 address.",
      wire: "inbound",
    }),
    ipv4: hostOrIpv4.optional().meta({
      description:
        "IPv4 address (an outbound-only gateway may use a hostname); give it or sipGatewaySid.",
      wire: "ipv4",
    }),
    netmask: netmask
      .optional()
      .meta({ description: "Network mask length in bits, 0–32.", wire: "netmask" }),
    port: port.optional().meta({ description: "SIP port, 1–65535.", wire: "port" }),
    protocol: text
      .optional()
      .meta({ description: "Transport protocol, e.g. udp.", wire: "protocol" }),
    sendOptionsPing: z.boolean().optional().meta({
      description: "Whether to send SIP OPTIONS pings to the gateway.",
      wire: "send_options_ping",
    }),
    useSipsScheme: z.boolean().optional().meta({
      description: "Whether to use sips: URIs towards the gateway.",
      wire: "use_sips_scheme",
    }),
    padCrypto: z.boolean().optional().meta({
      description: "Whether to pad SRTP crypto attributes.",
      wire: "pad_crypto",
    }),
    sipGatewaySid: text
      .optional()
      .meta({ description: "Identifier of the gateway.", wire: "sip_gateway_sid" }),
  }),
  [
    oneOf("ipv4", "sipGatewaySid", "the gateway's address (ipv4)"),
    {
      rule: "matchesWhen",
      field: "ipv4",
      when: "inbound",
      pattern: IPV4,
      message:
        "must be a literal IPv4 address for an inbound gateway, such as 203.0.113.10, not {value}",
    },
  ],
).meta({
  typeName: "SipGateway",
  description: "One SIP gateway of a carrier: where its calls go to or come from.",
});

const SipPhoneNumber = withFieldsRules(
  z.strictObject({
    phoneNumber: text.optional().meta({
      description: "The number, preferably E.164 (+14155550100); give it or phoneNumberSid.",
      wire: "phone_number",
    }),
    phoneNumberSid: text
      .optional()
      .meta({ description: "Identifier of the number.", wire: "phone_number_sid" }),
  }),
  [oneOf("phoneNumber", "phoneNumberSid", "the number (phoneNumber, e.g. +14155550100)")],
).meta({ typeName: "SipPhoneNumber", description: "One phone number of a carrier." });

/**
 * The inputs as the provider receives them, validated. The create body (section 4.3) names them
 * in snake_case, but `phoneNumbers` and `updatedBy` as the spec spells them. There is no update
 * operation, so every input replaces the carrier.
 */
export const SipCarrierInputs = z
  .strictObject({
    name: text.meta({
      description:
        "Carrier name. The spec leaves it open, but preflight finds an interrupted create on the platform by it.",
      wire: "name",
    }),
    registerUsername: z
      .string()
      .optional()
      .meta({ description: "Registration username.", wire: "register_username" }),
    registerPassword: z.string().optional().meta({
      description: "Registration password; write-only on the platform.",
      wire: "register_password",
      secret: true,
    }),
    requiresRegister: z.boolean().optional().meta({
      description: "Whether the carrier needs SIP registration.",
      wire: "requires_register",
    }),
    registerSipRealm: z
      .string()
      .optional()
      .meta({ description: "SIP realm of the registration.", wire: "register_sip_realm" }),
    registerFromUser: z.string().optional().meta({
      description: "User part of the From header of the registration.",
      wire: "register_from_user",
    }),
    registerFromDomain: z.string().optional().meta({
      description: "Domain of the From header of the registration.",
      wire: "register_from_domain",
    }),
    registerPublicIpInContact: z.boolean().optional().meta({
      description: "Whether the registration's Contact carries the public IP address.",
      wire: "register_public_ip_in_contact",
    }),
    techPrefix: z
      .string()
      .optional()
      .meta({ description: "Prefix dialled before outbound numbers.", wire: "tech_prefix" }),
    diversion: z
      .string()
      .optional()
      .meta({ description: "Diversion header value for outbound calls.", wire: "diversion" }),
    e164LeadingPlus: z.boolean().optional().meta({
      description: "Whether outbound numbers get a leading plus (E.164).",
      wire: "e164_leading_plus",
    }),
    gateways: z
      .array(SipGateway)
      .optional()
      .meta({ description: "Gateways.", wire: "gateways", set: true }),
    phoneNumbers: z
      .array(SipPhoneNumber)
      .optional()
      .meta({ description: "Phone numbers.", wire: "phoneNumbers", set: true }),
    outboundSipProxy: z
      .string()
      .optional()
      .meta({ description: "SIP proxy for outbound calls.", wire: "outbound_sip_proxy" }),
    updatedBy: z.string().optional().meta({
      description:
        "The carrier's updatedBy field, sent as given (the spec does not say what the platform does with it).",
      wire: "updatedBy",
    }),
    existingCarrierId: pathId
      .optional()
      .describe(
        "Record this existing carrier instead of creating one (no call is made: the API has no read).",
      ),
    subOrganizationId: subOrganizationId
      .optional()
      .describe("Sub-organization to act for; defaults to voiceplatform:subOrganizationId."),
  })
  .meta({ replaceOnChange: true });
export type SipCarrierInputs = z.infer<typeof SipCarrierInputs>;

/** What the provider writes beside the inputs. */
const SipCarrierOutputs = z.object({
  carrierId: z
    .string()
    .meta({ description: "The carrier's id on the platform.", writtenBy: "create" }),
});

/** What the resource stores. */
export type SipCarrierState = StateOf<typeof SipCarrierInputs, typeof SipCarrierOutputs>;

const CreatedCarrier = z.looseObject({ id: z.string().min(1) });

/** The create body (section 4.3), named as the inputs' wire facts say. */
export function toCarrierBody(inputs: SipCarrierInputs): Record<string, unknown> {
  return requestBody(SipCarrierInputs, inputs);
}

/** The transports jambonz's carrier model knows (the spec names udp only). */
export const knownProtocols = ["udp", "tcp", "tls", "tls/srtp"] as const;

/**
 * The carrier's warnings, as data the Python SDK's mocks read too (codegen/python-input-check.ts):
 * templates, and what they compare with.
 */
export const SIP_CARRIER_WARNINGS = {
  knownProtocols,
  lengthCaps: { name: 64, techPrefix: 16, diversion: 32, outboundSipProxy: 255 },
  defaultPort: 5060,
  says: {
    registerIncomplete:
      "{at}: requiresRegister is true but registerUsername or registerPassword is empty; registration will likely fail",
    usernameWhiteSpace:
      "{at}: registerUsername contains whitespace, which SIP registrars usually reject",
    sipPrefix: '{at}: {key} starts with "sip:"; give the bare domain or IPv4 address',
    tooLong: "{at}: {key} is {length} characters; carriers in this model allow {cap}",
    unknownProtocol: '{at}: gateways[{index}].protocol "{value}" is not one of {known}',
    netmaskZero: "{at}: gateways[{index}].netmask 0 matches every address",
    hostname:
      '{at}: gateways[{index}].ipv4 "{value}" is a hostname; the spec asks for an IPv4 address',
    sameEndpoint: "{at}: two gateways point at {endpoint}",
    notE164:
      '{at}: phoneNumbers[{index}].phoneNumber "{value}" is not in E.164 form (+14155550100)',
  },
} as const;

/** Rules jambonz (whose carrier model this API follows) enforces, but the spec does not: said, never enforced. */
function sipCarrierWarnings(inputs: SipCarrierInputs): string[] {
  const { says, lengthCaps, defaultPort } = SIP_CARRIER_WARNINGS;
  const at = `SipCarrier "${inputs.name}"`;
  const warnings: string[] = [];
  const say = (template: string, values: Record<string, string | number> = {}) =>
    warnings.push(filledIn(template, { at, ...values }));
  if (inputs.requiresRegister === true && (!inputs.registerUsername || !inputs.registerPassword))
    say(says.registerIncomplete);
  if (inputs.registerUsername !== undefined && /\s/.test(inputs.registerUsername))
    say(says.usernameWhiteSpace);
  for (const key of ["registerSipRealm", "registerFromDomain"] as const) {
    if (inputs[key]?.toLowerCase().startsWith("sip:")) say(says.sipPrefix, { key });
  }
  for (const [key, cap] of Object.entries(lengthCaps)) {
    const value = inputs[key as keyof typeof lengthCaps];
    if (typeof value === "string" && value.length > cap)
      say(says.tooLong, { key, length: value.length, cap });
  }
  const seen = new Set<string>();
  inputs.gateways?.forEach((gateway, index) => {
    if (
      gateway.protocol !== undefined &&
      !(knownProtocols as readonly string[]).includes(gateway.protocol)
    )
      say(says.unknownProtocol, {
        index,
        value: gateway.protocol,
        known: knownProtocols.join(", "),
      });
    if (gateway.netmask === 0) say(says.netmaskZero, { index });
    if (gateway.ipv4 === undefined) return;
    if (gateway.inbound !== true && !ipv4Address.safeParse(gateway.ipv4).success)
      say(says.hostname, { index, value: gateway.ipv4 });
    const endpoint = `${gateway.ipv4}:${gateway.port ?? defaultPort}`;
    if (seen.has(endpoint)) say(says.sameEndpoint, { endpoint });
    seen.add(endpoint);
  });
  inputs.phoneNumbers?.forEach((number, index) => {
    if (number.phoneNumber !== undefined && !e164Number.safeParse(number.phoneNumber).success)
      say(says.notE164, { index, value: number.phoneNumber });
  });
  return warnings;
}

function label(inputs: { name?: unknown }): string {
  return typeof inputs.name === "string" ? `SIP carrier "${inputs.name}"` : "SIP carrier";
}

async function create(
  context: ProviderContext,
  inputs: SipCarrierInputs,
): Promise<{ id: string; state: SipCarrierState }> {
  const existing = inputs.existingCarrierId;
  if (existing !== undefined)
    return { id: existing, state: await sipCarrier.stateAfterCreate(existing, inputs) };
  const response = await context.request({
    operation: `create ${label(inputs)}`,
    method: "POST",
    origin: "api",
    path: "/organization/sip",
    json: toCarrierBody(inputs),
    subOrganizationId: inputs.subOrganizationId,
    secrets: namedSecretValues(inputs, sipCarrier.secretInputs),
    idempotent: false,
    unknownOutcomeHint:
      `The platform may have created ${label(inputs)} although this call failed. Look for it on the platform ` +
      "before running `pulumi up` again: record it with existingCarrierId instead of creating a second one",
    answer: { schema: CreatedCarrier, problem: () => "the answer carries no carrier id" },
  });
  const id = response.body.id;
  const state = await stateOfCreated(id, { ...inputs, carrierId: id }, () =>
    sipCarrier.stateAfterCreate(id, inputs),
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

export const sipCarrier = defineResource({
  type: "SipCarrier",
  summary:
    "A SIP carrier (trunk) with registration credentials, gateways and phone numbers. The API has no update operation for carriers.",
  importId:
    "the carrier's id as the create answered it: `pulumi import voiceplatform:index:SipCarrier main-trunk <id>`",
  example: {
    title: "A carrier that registers, with one gateway and one number",
    typescript: `import * as pulumi from "@pulumi/pulumi";
import * as voiceplatform from "pulumi-voice-platform-sdk";

const config = new pulumi.Config();
const trunk = new voiceplatform.SipCarrier("main-trunk", {
    name: "main-trunk",
    requiresRegister: true,
    registerUsername: "acme-trunk",
    registerPassword: config.requireSecret("sipPassword"),
    gateways: [{ inbound: true, outbound: true, ipv4: "203.0.113.10", port: 5060, protocol: "udp" }],
    phoneNumbers: [{ phoneNumber: "+14155550100" }],
});
export const carrierId = trunk.carrierId;`,
    python: `import pulumi
import pulumi_voiceplatform as voiceplatform

config = pulumi.Config()
trunk = voiceplatform.SipCarrier("main-trunk",
    name="main-trunk",
    requires_register=True,
    register_username="acme-trunk",
    register_password=config.require_secret("sipPassword"),
    gateways=[voiceplatform.SipGatewayArgs(inbound=True, outbound=True, ipv4="203.0.113.10", port=5060, protocol="udp")],
    phone_numbers=[voiceplatform.SipPhoneNumberArgs(phone_number="+14155550100")])
pulumi.export("carrierId", trunk.carrier_id)`,
    go: `cfg := config.New(ctx, "")
trunk, err := voiceplatform.NewSipCarrier(ctx, "main-trunk", &voiceplatform.SipCarrierArgs{
	Name:             pulumi.String("main-trunk"),
	RequiresRegister: pulumi.Bool(true),
	RegisterUsername: pulumi.String("acme-trunk"),
	RegisterPassword: cfg.RequireSecret("sipPassword"),
	Gateways: voiceplatform.SipGatewayArray{&voiceplatform.SipGatewayArgs{
		Inbound: pulumi.Bool(true), Outbound: pulumi.Bool(true),
		Ipv4: pulumi.String("203.0.113.10"), Port: pulumi.Int(5060), Protocol: pulumi.String("udp"),
	}},
	PhoneNumbers: voiceplatform.SipPhoneNumberArray{
		&voiceplatform.SipPhoneNumberArgs{PhoneNumber: pulumi.String("+14155550100")},
	},
})
if err != nil {
	return err
}
ctx.Export("carrierId", trunk.CarrierId)
return nil`,
    yaml: `config:
  sipPassword:
    type: string
    secret: true
resources:
  main-trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: main-trunk
      requiresRegister: true
      registerUsername: acme-trunk
      registerPassword: \${sipPassword}
      gateways:
        - { inbound: true, outbound: true, ipv4: 203.0.113.10, port: 5060, protocol: udp }
      phoneNumbers:
        - phoneNumber: "+14155550100"
outputs:
  carrierId: \${main-trunk.carrierId}`,
  },
  inputSchema: SipCarrierInputs,
  outputSchema: SipCarrierOutputs,
  warnings: sipCarrierWarnings,
  create,
  delete: async (context, id, olds, deleted) =>
    warnStaysOnPlatform(context.log, `${label(olds)} (${id})`, deleted),
  adoptWith: (id) =>
    `existingCarrierId: ${JSON.stringify(id)} (its create records that carrier without a call)`,
  // The state after create (checked inputs and carrierId) and the update that records new
  // inputs are the defaults: there is no update call, so every input replaces the carrier.
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
});
