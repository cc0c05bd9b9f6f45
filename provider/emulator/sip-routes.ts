import { z } from "zod";
import type { SipCarrierFields, StoredCarrier } from "./control-types";
import { newObjectId } from "./ids";
import { readLoggedJsonBody, type OperationHandler } from "./operation";
import { parseWireBody } from "./wire-validation";

const gatewaySchema = z.strictObject({
  outbound: z.boolean().optional(),
  inbound: z.boolean().optional(),
  ipv4: z.string().optional(),
  netmask: z.number().int().optional(),
  port: z.number().int().optional(),
  protocol: z.string().optional(),
  send_options_ping: z.boolean().optional(),
  use_sips_scheme: z.boolean().optional(),
  pad_crypto: z.boolean().optional(),
  sip_gateway_sid: z.string().optional(),
});

const phoneNumberSchema = z.strictObject({
  phone_number_sid: z.string().optional(),
  phone_number: z.string().optional(),
});

/** Types only: the contract gives no ranges or required fields beyond a carrier needing a name. */
export const carrierSchema: z.ZodType<SipCarrierFields> = z.strictObject({
  name: z.string().min(1),
  register_username: z.string().optional(),
  register_password: z.string().optional(),
  requires_register: z.boolean().optional(),
  register_sip_realm: z.string().optional(),
  register_from_user: z.string().optional(),
  register_from_domain: z.string().optional(),
  register_public_ip_in_contact: z.boolean().optional(),
  tech_prefix: z.string().optional(),
  diversion: z.string().optional(),
  e164_leading_plus: z.boolean().optional(),
  gateways: z.array(gatewaySchema).optional(),
  phoneNumbers: z.array(phoneNumberSchema).optional(),
  outbound_sip_proxy: z.string().optional(),
  updatedBy: z.string().optional(),
});

export const createSipCarrier: OperationHandler = async (request) => {
  const fields = parseWireBody(carrierSchema, await readLoggedJsonBody(request));
  return {
    successStatus: 201,
    commit: () => {
      const carrier: StoredCarrier = {
        id: newObjectId(),
        organizationId: request.caller.organization.id,
        subOrganizationId: request.caller.subOrganizationId,
        ...fields,
      };
      request.store.addCarrier(carrier);
      return request.answers === "extended"
        ? { id: carrier.id, name: carrier.name, createdAt: "2026-01-01T00:00:00.000Z" }
        : { id: carrier.id };
    },
  };
};
