/**
 * The text of provider/dynamic/generated/args.ts, the `XArgs` types of the dynamic resources,
 * from the package schema (itself derived from the resource descriptors' zod schemas), so their
 * editor docs are the descriptions the schema carries and nobody writes the fields twice.
 */
import { requiredInputNames } from "../core/field-facts";
import { descriptorOf, type ResourceKind } from "../resources";
import {
  REQUIRED_TO_CREATE,
  type PackageSchema,
  type PropertySpec,
} from "../schema/package-schema";

const TYPE_REF = "#/types/voiceplatform:index:";

/** Sample files are read from disk: of Pulumi's assets, the provider takes a FileAsset. */
const ASSET_REF = "pulumi.json#/Asset";

function docComment(text: string | undefined, indent: string): string {
  return text === undefined ? "" : `${indent}/** ${text.replace(/\*\//g, "*\\/")} */\n`;
}

/** The TypeScript type of a schema property, each level a `pulumi.Input`. */
function typeOf(spec: PropertySpec, schema: PackageSchema): string {
  const ref = spec.$ref as string | undefined;
  if (ref === ASSET_REF) return "pulumi.asset.FileAsset";
  if (ref !== undefined) {
    const name = ref.slice(TYPE_REF.length);
    return "enum" in (schema.types[`voiceplatform:index:${name}`] ?? {}) ? name : `${name}Args`;
  }
  const oneOf = spec.oneOf as PropertySpec[] | undefined;
  if (oneOf !== undefined) return oneOf.map((option) => typeOf(option, schema)).join(" | ");
  switch (spec.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return `pulumi.Input<${typeOf(spec.items as PropertySpec, schema)}>[]`;
    default:
      throw new Error(`dynamic-args: no TypeScript type for ${JSON.stringify(spec)}`);
  }
}

function interfaceText(
  name: string,
  description: string | undefined,
  properties: Record<string, PropertySpec>,
  required: readonly string[],
  schema: PackageSchema,
): string {
  const fields = Object.entries(properties).map(
    ([field, spec]) =>
      `${docComment(spec.description, "  ")}  ${field}${required.includes(field) ? "" : "?"}: pulumi.Input<${typeOf(spec, schema)}>;\n`,
  );
  return `${docComment(description, "")}export interface ${name} {\n${fields.join("")}}\n`;
}

/** The object and enum types the resources' inputs use, in schema order. */
function inputTypeNames(schema: PackageSchema): Set<string> {
  const used = new Set<string>();
  const visit = (spec: PropertySpec) => {
    const ref = spec.$ref as string | undefined;
    if (ref?.startsWith(TYPE_REF)) {
      const token = `voiceplatform:index:${ref.slice(TYPE_REF.length)}`;
      if (used.has(token)) return;
      used.add(token);
      const type = schema.types[token] as { properties?: Record<string, PropertySpec> };
      Object.values(type.properties ?? {}).forEach(visit);
    }
    if (spec.items !== undefined) visit(spec.items as PropertySpec);
    (spec.oneOf as PropertySpec[] | undefined)?.forEach(visit);
  };
  for (const resource of Object.values(schema.resources))
    Object.values(resource.inputProperties).forEach(visit);
  return new Set(Object.keys(schema.types).filter((token) => used.has(token)));
}

/** The inputs without the schema's note that the SDKs do not demand a required input. */
function withoutImportNote(properties: Record<string, PropertySpec>): Record<string, PropertySpec> {
  return Object.fromEntries(
    Object.entries(properties).map(([name, spec]) => [
      name,
      spec.description === undefined
        ? spec
        : { ...spec, description: spec.description.replace(` ${REQUIRED_TO_CREATE}`, "") },
    ]),
  );
}

export function argsText(schema: PackageSchema): string {
  const parts = ['import type * as pulumi from "@pulumi/pulumi";\n'];
  for (const token of inputTypeNames(schema)) {
    const name = token.split(":").pop()!;
    const type = schema.types[token]!;
    if ("enum" in type) {
      const values = type.enum.map((option) => JSON.stringify(option.value)).join(" | ");
      parts.push(`${docComment(type.description, "")}export type ${name} = ${values};\n`);
    } else {
      const description = type.description ?? `One item of a resource's ${name} inputs.`;
      parts.push(
        interfaceText(`${name}Args`, description, type.properties, type.required ?? [], schema),
      );
    }
  }
  for (const [token, resource] of Object.entries(schema.resources)) {
    const name = token.split(":").pop()!;
    const summary = resource.description.split("\n")[0];
    parts.push(
      interfaceText(
        `${name}Args`,
        `Inputs of ${name}: ${summary}`,
        withoutImportNote(resource.inputProperties),
        // The dynamic resources import nothing: every input a create needs is demanded.
        requiredInputNames(descriptorOf(name as ResourceKind).inputSchema),
        schema,
      ),
    );
  }
  return parts.join("\n");
}
