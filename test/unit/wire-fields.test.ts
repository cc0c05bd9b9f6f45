/**
 * The request bodies the descriptors' wire facts build, held against what the emulator accepts:
 * its strict schemas restate the API spec's body fields on their own (test/emulator), so an input
 * sent under a name the spec does not list, or a spec field no input sends, fails here, for every
 * resource of the list and every call that sends a body. What the emulator accepts from a kind is
 * in its fixture (test/fixtures/kinds). The secrets the emulator blanks, which its route file
 * names, are held against the descriptor's secret fields the same way.
 */
import { z } from "zod";
import { factsOf, wirePaths, type WireName } from "../../provider/core/field-facts";
import type { KindRoutes } from "../../provider/emulator/routes";
import { kebabCase, resources } from "../../provider/resources";
import { fixtureOf } from "../support/kind-fixtures";

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

/** The object a field holds: itself, or the items of a list of objects; undefined otherwise. */
function nestedOf(field: z.ZodType): { object: z.ZodObject; list: boolean } | undefined {
  let inner = field;
  let list = false;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodArray) {
    list ||= inner instanceof z.ZodArray;
    inner = (inner instanceof z.ZodOptional ? inner.unwrap() : inner.element) as z.ZodType;
  }
  return inner instanceof z.ZodObject ? { object: inner, list } : undefined;
}

/**
 * The secret fields by their wire names, as a route file names them: a top-level one by its
 * name, a nested one by its path (`advancedWebhook.headers[].value`).
 */
function secretWirePaths(object: z.ZodObject, prefix = ""): string[] {
  return Object.values(object.shape as Record<string, z.ZodType>).flatMap((field) => {
    const wire = factsOf(field).wire;
    const names = wire === undefined ? [] : typeof wire === "string" ? [wire] : Object.values(wire);
    return [...new Set(names)].flatMap((name) => {
      if (factsOf(field).secret) return [`${prefix}${name}`];
      const nested = nestedOf(field);
      return nested === undefined
        ? []
        : secretWirePaths(nested.object, `${prefix}${name}${nested.list ? "[]" : ""}.`);
    });
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
    // What the emulator accepts from the kind, by call: its fixture's emulatorBodies.
    const accepted = fixtureOf(kind).emulatorBodies;

    test("the emulator blanks exactly the secret fields its descriptor names, nested ones included", () => {
      const route = `../../provider/emulator/routes/${kebabCase(kind)}`;
      const { kindRoutes } = require(route) as { kindRoutes: KindRoutes };
      expect([...(kindRoutes.secretFields ?? [])].sort()).toEqual(
        secretWirePaths(descriptor.inputSchema).sort(),
      );
    });

    test("sends bodies only for the calls the emulator has", () => {
      expect(callsOf(descriptor.inputSchema).sort()).toEqual(Object.keys(accepted).sort());
    });

    // A kind that sends no body has only the test above.
    const bodies = Object.entries(accepted).map(([call, fields]): [string, readonly string[]] => [
      call || "one",
      fields,
    ]);
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
