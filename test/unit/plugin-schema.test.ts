/**
 * The package schema against the zod schemas it is derived from, read here another way (zod's
 * own definitions, not its JSON Schema export): every input by name, type, whether it is
 * required, whether it is secret, and its description (which what its facts say then follows).
 */
import type { z } from "zod";
import { ProviderInputs } from "../../provider/plugin/provider-config";
import { resources } from "../../provider/resources";
import {
  packageSchema,
  resourceToken,
  type ObjectTypeSpec,
  type PackageSchema,
  type TypeSpec,
} from "../../provider/schema/package-schema";
import { fixtureOf } from "../support/kind-fixtures";

const schema = packageSchema();

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      innerType?: z.ZodType;
      element?: z.ZodType;
      options?: z.ZodType[];
      in?: z.ZodType;
      shape?: Record<string, z.ZodType>;
    };
  };
  description?: string;
  meta(): Record<string, unknown> | undefined;
}

const internals = (schema: z.ZodType) => schema as unknown as ZodInternals;

/** Optional, default and pipe wrappers removed: the type the user writes. */
function unwrap(schema: z.ZodType): z.ZodType {
  const def = internals(schema)._zod.def;
  if (def.type === "optional" || def.type === "nullable" || def.type === "default")
    return unwrap(def.innerType!);
  if (def.type === "pipe") return unwrap(def.in!);
  return schema;
}

/** The meta of the schema or of any wrapper around it (`.meta()` on a pipe stays on the pipe). */
function metaOf(schema: z.ZodType): Record<string, unknown> {
  const own = internals(schema).meta?.() ?? {};
  const def = internals(schema)._zod.def;
  const inner = def.type === "pipe" ? def.in : def.innerType;
  return inner === undefined ? own : { ...metaOf(inner), ...own };
}

/** What a zod schema should look like in the package schema, resolved through `types`. */
function expectSameType(
  zodSchema: z.ZodType,
  spec: TypeSpec,
  types: PackageSchema["types"],
  where: string,
): void {
  const inner = unwrap(zodSchema);
  const { def } = internals(inner)._zod;
  const meta = metaOf(zodSchema);
  const resolved = (spec: TypeSpec) =>
    typeof spec.$ref === "string" && spec.$ref.startsWith("#/types/")
      ? (types[spec.$ref.slice("#/types/".length)] as unknown as TypeSpec)
      : spec;
  if (meta.pulumiType !== undefined) {
    expect({ where, type: spec.type }).toEqual({ where, type: meta.pulumiType });
    return;
  }
  switch (def.type) {
    case "string":
    case "boolean":
      expect({ where, type: spec.type }).toEqual({ where, type: def.type });
      return;
    case "number":
      expect({ where, type: spec.type }).toEqual({
        where,
        type: (inner as unknown as { isInt: boolean }).isInt ? "integer" : "number",
      });
      return;
    case "enum": {
      const target = resolved(spec) as { enum?: { value: string }[] };
      expect({ where, values: target.enum?.map((e) => e.value) }).toEqual({
        where,
        values: (inner as unknown as { options: string[] }).options,
      });
      return;
    }
    case "custom":
      expect({ where, spec }).toEqual({ where, spec: { $ref: "pulumi.json#/Asset" } });
      return;
    case "union": {
      const branches = spec.oneOf as TypeSpec[] | undefined;
      expect({ where, count: branches?.length }).toEqual({ where, count: def.options!.length });
      def.options!.forEach((option, index) =>
        expectSameType(option, branches![index]!, types, `${where}|${index}`),
      );
      return;
    }
    case "array":
      expect({ where, type: spec.type }).toEqual({ where, type: "array" });
      expectSameType(def.element!, spec.items as TypeSpec, types, `${where}[]`);
      return;
    case "object": {
      const target = resolved(spec) as {
        properties?: Record<string, TypeSpec>;
        required?: string[];
      };
      expectSameProperties(
        inner as z.ZodObject,
        target.properties ?? {},
        target.required ?? [],
        types,
        where,
      );
      return;
    }
    default:
      throw new Error(`${where}: zod type ${def.type} has no expectation in this test`);
  }
}

function expectSameProperties(
  object: z.ZodObject,
  properties: Record<string, TypeSpec>,
  required: readonly string[],
  types: PackageSchema["types"],
  where: string,
  /** The zod-required fields the schema does not demand (a resource's, that an import cannot read). */
  notDemanded: readonly string[] = [],
): void {
  const shape = object.shape as Record<string, z.ZodType>;
  expect({ where, names: Object.keys(properties).sort() }).toEqual({
    where,
    names: Object.keys(shape).sort(),
  });
  const zodRequired = Object.keys(shape).filter(
    (name) => !shape[name]!.safeParse(undefined).success,
  );
  expect({ where, required: [...required].sort() }).toEqual({
    where,
    required: zodRequired.filter((name) => !notDemanded.includes(name)).sort(),
  });
  for (const [name, field] of Object.entries(shape)) {
    const path = `${where}.${name}`;
    expectSameType(field, properties[name]!, types, path);
    // What the field's facts say follows (test/unit/input-descriptions.test.ts reads it all).
    const own = metaOf(field).description as string | undefined;
    const described = properties[name]!.description as string | undefined;
    expect({ path, description: described?.slice(0, own?.length) }).toEqual({
      path,
      description: own,
    });
  }
}

/**
 * The required inputs an import cannot read (the API has none): Pulumi's import would write `""`
 * for each into the code it generates, so the schema leaves them to the provider's check. Every
 * zod-required input but those the id tells (`toldById`).
 */
function requiredToCreateOnly(object: z.ZodObject): string[] {
  const shape = object.shape as Record<string, z.ZodType>;
  return Object.keys(shape).filter(
    (name) => !shape[name]!.safeParse(undefined).success && metaOf(shape[name]!).toldById !== true,
  );
}

/**
 * The secret fields of each nested type of an inputs object, by the type's token: what the
 * fields' own facts say, read beside the schema rather than from it.
 */
function nestedSecrets(object: z.ZodObject): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  const walk = (field: z.ZodType) => {
    const inner = unwrap(field);
    const { def } = internals(inner)._zod;
    if (def.type === "array") return walk(def.element!);
    if (def.type !== "object") return;
    const shape = (inner as z.ZodObject).shape as Record<string, z.ZodType>;
    const typeName = metaOf(field).typeName as string;
    const secret = Object.keys(shape).filter((name) => metaOf(shape[name]!).secret === true);
    if (secret.length > 0) found[resourceToken(typeName)] = secret;
    Object.values(shape).forEach(walk);
  };
  Object.values(object.shape as Record<string, z.ZodType>).forEach(walk);
  return found;
}

describe("package schema", () => {
  it.each(resources.map((descriptor) => [descriptor.type, descriptor] as const))(
    "%s: inputs match the zod schema by name, type, requiredness and description",
    (_name, definition) => {
      const resource = schema.resources[resourceToken(definition.type)]!;
      expect(resource).toBeDefined();
      expectSameProperties(
        definition.inputSchema,
        resource.inputProperties,
        resource.requiredInputs,
        schema.types,
        definition.type,
        requiredToCreateOnly(definition.inputSchema),
      );
    },
  );

  it("demands only the inputs an import knows from the id, and says the others are required to create", () => {
    const demanded = Object.fromEntries(
      resources.map((descriptor) => [
        descriptor.type,
        schema.resources[resourceToken(descriptor.type)]!.requiredInputs,
      ]),
    );
    // What an id tells, as the kind reads it from its fixture's id, not the toldById fact.
    const toldById = Object.fromEntries(
      resources.map((descriptor) => {
        const told = Object.keys(descriptor.outputsFromId?.(fixtureOf(descriptor.type).id) ?? {});
        const shape = descriptor.inputSchema.shape as Record<string, z.ZodType>;
        const required = Object.keys(shape).filter(
          (name) => !shape[name]!.safeParse(undefined).success,
        );
        return [descriptor.type, required.filter((name) => told.includes(name))];
      }),
    );
    expect(demanded).toEqual(toldById);
    const toCreate = Object.fromEntries(
      resources.map((descriptor) => [
        descriptor.type,
        requiredToCreateOnly(descriptor.inputSchema),
      ]),
    );
    for (const [type, names] of Object.entries(toCreate)) {
      const resource = schema.resources[resourceToken(type)]!;
      for (const name of names) {
        // The schema's own wording, which every generated SDK's docs carry verbatim.
        expect(resource.inputProperties[name]!.description).toContain(
          "Required to create the object (checked at preview)",
        );
        // Not an output every state has either: an adopted object may lack it.
        expect(resource.required).not.toContain(name);
      }
    }
  });

  it("marks the secrets secret where they are: inputs, outputs and nested types", () => {
    const secretsOf = (properties: Record<string, { secret?: boolean }>) =>
      Object.keys(properties).filter((name) => properties[name]!.secret === true);
    const secrets = Object.fromEntries(
      resources.map((descriptor) => {
        const resource = schema.resources[resourceToken(descriptor.type)]!;
        return [
          descriptor.type,
          { inputs: secretsOf(resource.inputProperties), outputs: secretsOf(resource.properties) },
        ];
      }),
    );
    // Each kind's top-level secret inputs, as its descriptor names them, are secret inputs and outputs.
    const topLevel = (paths: readonly string[]) => paths.filter((path) => !/[.[]/.test(path));
    expect(secrets).toEqual(
      Object.fromEntries(
        resources.map((descriptor) => [
          descriptor.type,
          {
            inputs: topLevel(descriptor.secretInputs),
            outputs: topLevel(descriptor.secretInputs),
          },
        ]),
      ),
    );
    // The one independent oracle: each kind's fixture restates its secrets from the spec, so a
    // descriptor that loses a secret fact fails here rather than agreeing with itself.
    for (const descriptor of resources) {
      expect({ kind: descriptor.type, secrets: [...descriptor.secretInputs].sort() }).toEqual({
        kind: descriptor.type,
        secrets: [...fixtureOf(descriptor.type).secretInputs].sort(),
      });
    }
    const nested = Object.fromEntries(
      Object.entries(schema.types)
        .filter(([, type]) => "properties" in type)
        .map(([token, type]) => [token, secretsOf((type as ObjectTypeSpec).properties)])
        .filter(([, names]) => (names?.length ?? 0) > 0),
    );
    expect(nested).toEqual(
      Object.assign({}, ...resources.map((descriptor) => nestedSecrets(descriptor.inputSchema))),
    );
    expect(secretsOf(schema.provider.inputProperties)).toEqual(["apiKey"]);
    expect(secretsOf(schema.config.variables)).toEqual(["apiKey"]);
  });

  it("every input of every resource has a one-line description", () => {
    for (const resource of Object.values(schema.resources)) {
      for (const [name, spec] of Object.entries(resource.inputProperties)) {
        expect({ name, description: spec.description }).toEqual({
          name,
          description: expect.stringMatching(/^[^\n]+$/),
        });
      }
    }
  });

  it("outputs are the inputs plus what the provider writes, each described", () => {
    for (const descriptor of resources) {
      const resource = schema.resources[resourceToken(descriptor.type)]!;
      const written = descriptor.outputs.map((o) => o.name);
      expect(Object.keys(resource.properties).sort()).toEqual(
        [...Object.keys(descriptor.inputSchema.shape), ...written].sort(),
      );
      for (const output of written) expect(resource.properties[output]!.description).toBeTruthy();
    }
  });

  it("the provider's inputs match ProviderInputs and each names its environment variable", () => {
    expectSameProperties(
      ProviderInputs,
      schema.provider.inputProperties,
      [],
      schema.types,
      "provider",
    );
    expect(
      Object.fromEntries(
        Object.entries(schema.provider.inputProperties).map(([name, spec]) => [
          name,
          spec.defaultInfo?.environment,
        ]),
      ),
    ).toEqual({
      apiKey: ["VOICEPLATFORM_API_KEY"],
      baseUrl: ["VOICEPLATFORM_BASE_URL"],
      campaignsBaseUrl: ["VOICEPLATFORM_CAMPAIGNS_BASE_URL"],
      subOrganizationId: ["VOICEPLATFORM_SUB_ORGANIZATION_ID"],
      authScheme: ["VOICEPLATFORM_AUTH_SCHEME"],
      timeoutSeconds: ["VOICEPLATFORM_TIMEOUT_SECONDS"],
      maxRetries: ["VOICEPLATFORM_MAX_RETRIES"],
      maxConcurrency: ["VOICEPLATFORM_MAX_CONCURRENCY"],
    });
    for (const spec of Object.values(schema.provider.inputProperties))
      expect(spec.description).toBeTruthy();
  });

  it("every reference points at a defined type", () => {
    const refs = JSON.stringify(schema).match(/"#\/types\/[^"]+"/g) ?? [];
    for (const ref of refs) expect(schema.types[ref.slice(9, -1)]).toBeDefined();
    expect(refs.length).toBeGreaterThan(0);
  });
});
