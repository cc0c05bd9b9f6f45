/**
 * The request bodies the descriptors' wire facts build, held against what the emulator accepts:
 * its strict schemas restate the API spec's body fields on their own (test/emulator), so an input
 * sent under a name the spec does not list, or a spec field no input sends, fails here, for every
 * resource of the list and every call that sends a body.
 */
import { z } from "zod";
import { factsOf, wirePaths, type WireName } from "../../provider/core/field-facts";
import { resources, type ResourceKind } from "../../provider/resources";
import { subscribeSchema } from "../../provider/emulator/campaign-routes";
import { FILE_FIELD } from "../../provider/emulator/multipart-upload";
import { carrierSchema } from "../../provider/emulator/sip-routes";
import { CLONE_FORM_FIELDS, voiceUpdateSchema } from "../../provider/emulator/validate-voice";

/** Every leaf an emulator schema accepts, by path (`gateways[].port`, `settings.speed`). */
function leaves(schema: z.ZodType, prefix = ""): string[] {
  let inner = schema;
  let list = false;
  for (;;) {
    if (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodArray) {
      inner = inner.element as z.ZodType;
      list = true;
    } else break;
  }
  if (!(inner instanceof z.ZodObject)) return [prefix];
  const at = list ? `${prefix}[]` : prefix;
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) =>
    leaves(field, at === "" ? key : `${at}.${key}`),
  );
}

/**
 * What the emulator accepts from each kind, by call: `""` for a kind whose fields carry one wire
 * name for its one body; no entry for a kind that sends no body.
 */
const accepted: Record<ResourceKind, Readonly<Record<string, readonly string[]>>> = {
  Voice: {
    clone: [...Object.keys(CLONE_FORM_FIELDS), FILE_FIELD],
    update: leaves(voiceUpdateSchema),
  },
  SipCarrier: { "": leaves(carrierSchema) },
  CampaignWebhook: { "": leaves(subscribeSchema) },
};

/** The wire facts of a schema's fields at any depth. */
function wiresOf(schema: z.ZodType): WireName[] {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodArray) {
    inner = (inner instanceof z.ZodOptional ? inner.unwrap() : inner.element) as z.ZodType;
  }
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.values(inner.shape as Record<string, z.ZodType>).flatMap((field) => {
    const wire = factsOf(field).wire;
    return [...(wire === undefined ? [] : [wire]), ...wiresOf(field)];
  });
}

/** The calls the wire facts name; `""` alone when every name holds for the one body. */
function callsOf(schema: z.ZodType): string[] {
  const wires = wiresOf(schema);
  const named = new Set(
    wires.flatMap((wire) => (typeof wire === "string" ? [] : Object.keys(wire))),
  );
  return named.size > 0 ? [...named] : wires.length > 0 ? [""] : [];
}

describe.each(resources.map((descriptor) => [descriptor.type, descriptor] as const))(
  "%s",
  (kind, descriptor) => {
    test("sends bodies only for the calls the emulator has", () => {
      expect(callsOf(descriptor.inputSchema).sort()).toEqual(Object.keys(accepted[kind]).sort());
    });

    // A kind that sends no body has only the test above.
    const bodies = Object.entries(accepted[kind]).map(
      ([call, fields]): [string, readonly string[]] => [call || "one", fields],
    );
    if (bodies.length > 0) {
      test.each(bodies)(
        "the %s body holds exactly the fields the API spec lists",
        (call, fields) => {
          const sent = wirePaths(descriptor.inputSchema, call === "one" ? undefined : call);
          expect([...sent].sort()).toEqual([...fields].sort());
        },
      );
    }
  },
);
