/**
 * Facts about a field live on the field: `.meta({ ... })` on its zod schema (zod's global
 * registry), as pulumi-go-provider's `infer` keeps them in struct tags. Besides zod's own
 * `description`:
 *
 * - `secret`: the value is secret (a password, a token in a URL);
 * - `wire`: the name the API's request body gives it (`register_password`, `settings.stability`
 *   for a field the API groups in an object), or one name per call where a resource's calls name
 *   it differently (`{ clone: "similarityBoost", update: "settings.similarity_boost" }`, the call
 *   `update` being the one that changes an object in place); a field without one is not sent in
 *   a body (a path parameter, a header, the provider's own);
 * - `replaceOnChange`: a change needs a new object; on the inputs object itself, every input;
 * - `set`: a list whose order means nothing: stored sorted without repeats, compared as a set;
 * - `typeName`: on a nested object or enum, its name among the schema's types (`SipGateway`);
 * - `pulumiType`: the schema's type where zod's does not say it (a number also taken as text);
 * - `writtenBy`: on an output, the calls whose answer gives it;
 * - `toldById`: on a top-level input, the object's id tells its value (a webhook's `campaignId`),
 *   so an import knows it although the API has no read.
 *
 * Everything that used to be a list beside the schema is read from these: secret input paths,
 * secret wire fields, the diff plan, the sorting of sets, request bodies and the output types.
 */
import { z } from "zod";
import { sortedSet, type DiffPlan } from "./diff";
import { containsUnknown } from "./engine-values";
import type { Inputs } from "./property-bag";

declare module "zod" {
  interface GlobalMeta {
    secret?: boolean;
    wire?: WireName;
    replaceOnChange?: boolean;
    set?: boolean;
    typeName?: string;
    pulumiType?: "integer" | "number";
    writtenBy?: "create" | "create and update";
    toldById?: boolean;
  }
}

/** The API's name for a field: in every body the resource sends, or per call. */
export type WireName = string | Readonly<Record<string, string>>;

export type FieldFacts = z.GlobalMeta;

type AnyObject = z.ZodObject;

/** The schema a field holds: optional, nullable and default wrappers taken off. */
export function innerSchema(field: z.ZodType): z.ZodType {
  let inner = field;
  while (
    inner instanceof z.ZodOptional ||
    inner instanceof z.ZodNullable ||
    inner instanceof z.ZodDefault
  ) {
    inner = inner.unwrap() as z.ZodType;
  }
  return inner;
}

/** A field's facts, from the field and the wrappers around it: an outer one wins. */
export function factsOf(field: z.ZodType): FieldFacts {
  const own = z.globalRegistry.get(field) ?? {};
  if (innerSchema(field) === field) return { ...own };
  return { ...factsOf((field as z.ZodOptional).unwrap() as z.ZodType), ...own };
}

/** The object a field holds: itself, or the items of a list of objects; undefined otherwise. */
function nestedObject(field: z.ZodType): { object: AnyObject; list: boolean } | undefined {
  const inner = innerSchema(field);
  if (inner instanceof z.ZodObject) return { object: inner, list: false };
  if (inner instanceof z.ZodArray) {
    const items = innerSchema(inner.element as z.ZodType);
    if (items instanceof z.ZodObject) return { object: items, list: true };
  }
  return undefined;
}

function shapeOf(object: AnyObject): [string, z.ZodType][] {
  return Object.entries(object.shape as Record<string, z.ZodType>);
}

/** Whether a field may be left out. */
export function isOptional(field: z.ZodType): boolean {
  return field.safeParse(undefined).success;
}

/** The top-level inputs a create cannot do without. */
export function requiredInputNames(object: AnyObject): string[] {
  return shapeOf(object)
    .filter(([, field]) => !isOptional(field))
    .map(([key]) => key);
}

/**
 * The required inputs an import knows without a read, because the id tells them: the only ones
 * the plugin's schema (and so every SDK) demands. Pulumi's import writes a zero value (`""`) for
 * each other required input into the code it generates, and the provider would refuse that.
 */
export function requiredOnImport(object: AnyObject): string[] {
  return requiredInputNames(object).filter(
    (key) => factsOf(object.shape[key] as z.ZodType).toldById === true,
  );
}

/**
 * The paths of the secret fields at any depth, as descriptors name them: `registerPassword`,
 * `advancedWebhook.headers[].value` for field `value` of every item of list `headers`.
 */
export function secretPaths(object: AnyObject, prefix = ""): string[] {
  return shapeOf(object).flatMap(([key, field]) => {
    if (factsOf(field).secret) return [`${prefix}${key}`];
    const nested = nestedObject(field);
    return nested === undefined
      ? []
      : secretPaths(nested.object, `${prefix}${key}${nested.list ? "[]" : ""}.`);
  });
}

/** Every name a field's wire fact gives it. */
function allWireNames(wire: WireName | undefined): string[] {
  if (wire === undefined) return [];
  return typeof wire === "string" ? [wire] : [...new Set(Object.values(wire))];
}

/** The last segment of a wire name: the key a body holds it under. */
const wireKey = (name: string) => name.split(".").pop()!;

/**
 * The secret fields as redaction blanks them in a body the package logs or quotes (see
 * platform/redaction): a top-level secret by its API name and its input name (a complaint may
 * echo either), a secret in the items of a list as `list[].field`, both ways too. A secret in a
 * nested object that is no list (`advancedWebhook.url`) is not named: its key is not secret
 * elsewhere in the body (`url`); its value is blanked wherever it shows all the same, since the
 * served layer remembers every secret value of a call.
 */
export function secretWireFields(object: AnyObject): string[] {
  const names = new Set<string>();
  const namesOf = (key: string, field: z.ZodType) => [
    ...allWireNames(factsOf(field).wire).map(wireKey),
    key,
  ];
  const walk = (holder: AnyObject, where: "top" | "object" | { readonly lists: string[] }) => {
    for (const [key, field] of shapeOf(holder)) {
      if (factsOf(field).secret) {
        const own = namesOf(key, field);
        if (where === "top") own.forEach((name) => names.add(name));
        else if (where !== "object")
          for (const list of where.lists) own.forEach((name) => names.add(`${list}[].${name}`));
        continue;
      }
      const nested = nestedObject(field);
      if (nested !== undefined)
        walk(nested.object, nested.list ? { lists: namesOf(key, field) } : "object");
    }
  };
  walk(object, "top");
  return [...names];
}

/** The name a field has in the body of `call` (of every call, without one); undefined: not sent. */
export function wireName(field: z.ZodType, call?: string): string | undefined {
  const wire = factsOf(field).wire;
  if (wire === undefined || typeof wire === "string") return wire;
  return call === undefined ? undefined : wire[call];
}

export interface BodyOptions {
  /** The call whose body this is, for fields named per call. */
  readonly call?: string;
  /** Whether a top-level input is sent (the program's `ignoreChanges` may keep one out). */
  readonly keep?: (key: string) => boolean;
}

/**
 * A request body from validated inputs: every field with a wire name and a value, under that name
 * (a dotted name nests it: `settings.similarity_boost`), nested objects and lists of them mapped
 * the same way.
 */
export function requestBody(
  object: AnyObject,
  value: object,
  options: BodyOptions = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const values = value as Record<string, unknown>;
  for (const [key, field] of shapeOf(object)) {
    const name = wireName(field, options.call);
    const given = values[key];
    if (name === undefined || given === undefined) continue;
    if (options.keep !== undefined && !options.keep(key)) continue;
    const segments = name.split(".");
    let holder = body;
    for (const segment of segments.slice(0, -1)) {
      holder = (holder[segment] ??= {}) as Record<string, unknown>;
    }
    holder[segments.at(-1)!] = wireValue(field, given, options.call);
  }
  return body;
}

function wireValue(field: z.ZodType, value: unknown, call: string | undefined): unknown {
  const nested = nestedObject(field);
  if (nested === undefined || value === null || typeof value !== "object") return value;
  const inner = { call };
  if (!nested.list) return requestBody(nested.object, value, inner);
  return Array.isArray(value)
    ? value.map((item: unknown) =>
        item !== null && typeof item === "object" ? requestBody(nested.object, item, inner) : item,
      )
    : value;
}

/**
 * Every leaf a body of `call` can hold, by path (`gateways[].send_options_ping`,
 * `settings.stability`): what the API must accept, held against the emulator's schemas in tests.
 */
export function wirePaths(object: AnyObject, call?: string, prefix = ""): string[] {
  return shapeOf(object).flatMap(([, field]) => {
    const name = wireName(field, call);
    if (name === undefined) return [];
    const nested = nestedObject(field);
    const path = `${prefix}${name}`;
    return nested === undefined
      ? [path]
      : wirePaths(nested.object, call, `${path}${nested.list ? "[]" : ""}.`);
  });
}

/** Refuses a fact the derivations do not read below the top level, rather than ignore it. */
function topLevelOnly(object: AnyObject, where: string): void {
  for (const [key, field] of shapeOf(object)) {
    const facts = factsOf(field);
    for (const fact of ["replaceOnChange", "set"] as const) {
      if (facts[fact] && where !== "") {
        throw new Error(`${where}${key}: ${fact} applies to top-level inputs only`);
      }
    }
    const nested = nestedObject(field);
    if (nested !== undefined) {
      topLevelOnly(nested.object, `${where}${key}${nested.list ? "[]" : ""}.`);
    }
  }
}

/** How diff compares the inputs, from their facts. */
export function diffPlanOf(object: AnyObject): DiffPlan {
  topLevelOnly(object, "");
  const fields = shapeOf(object);
  const everyInput = z.globalRegistry.get(object)?.replaceOnChange === true;
  const replaces = ([, field]: [string, z.ZodType]) =>
    everyInput || factsOf(field).replaceOnChange === true;
  const keysOf = (list: [string, z.ZodType][]) => list.map(([key]) => key);
  return {
    keys: keysOf(fields),
    replaceKeys: new Set(keysOf(fields.filter(replaces))),
    setKeys: new Set(keysOf(fields.filter(([, field]) => factsOf(field).set === true))),
    // The update (the call named `update`) sends only what is declared: leaving one of these
    // out sends nothing, so the platform keeps its value.
    optionalInPlaceKeys: new Set(
      keysOf(
        fields.filter(
          (entry) =>
            !replaces(entry) && isOptional(entry[1]) && wireName(entry[1], "update") !== undefined,
        ),
      ),
    ),
  };
}

/** The inputs with every known list that is a set sorted and without repeats. */
export function sortedSets(object: AnyObject, news: Inputs): Inputs {
  const result: Inputs = { ...news };
  for (const [key, field] of shapeOf(object)) {
    const list = news[key];
    if (factsOf(field).set && Array.isArray(list) && !containsUnknown(list)) {
      result[key] = sortedSet(list);
    }
  }
  return result;
}

/** An output the provider writes beside the inputs it echoes back. */
export interface OutputField {
  readonly name: string;
  /** The calls whose answer gives it: unknown in a preview of those (core/planned-state). */
  readonly writtenBy: "create" | "create and update";
  /** Present in every created resource's state: a required output of the schema. */
  readonly always: boolean;
}

export function outputFieldsOf(outputs: AnyObject): OutputField[] {
  return shapeOf(outputs).map(([name, field]) => {
    const writtenBy = factsOf(field).writtenBy;
    if (writtenBy === undefined) {
      throw new Error(`output ${name}: say which calls write it (writtenBy)`);
    }
    return { name, writtenBy, always: !isOptional(field) };
  });
}
