/**
 * The Pulumi package schema of the `voiceplatform` plugin, derived from the resource descriptors'
 * zod schemas: names, types, required fields and descriptions of inputs and outputs, and what the
 * fields' facts say (secret, nested type names; replace rules and sets, said once here in the
 * descriptions). GetSchema serves it, and SDKs are generated from it (`npm run schema -- <file>`
 * writes it).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { requiredInputNames, requiredOnImport } from "../core/field-facts";
import type { ResourceDescriptor } from "../core/resource-descriptor";
import { resources } from "../resources";
import {
  secretSettings,
  settingSources,
  SettingsSchema,
  type SettingName,
} from "../settings/config";
import { examplesSection } from "./examples";

export const PACKAGE_NAME = "voiceplatform";

/** A Pulumi schema type spec (`type`, `items`, `$ref`, `oneOf`, …). */
export type TypeSpec = Record<string, unknown>;

export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  defaultInfo?: { environment: string[] };
}

/** An object type of the schema. */
export interface ObjectTypeSpec {
  readonly type: "object";
  readonly description?: string;
  readonly properties: Record<string, PropertySpec>;
  readonly required?: string[];
}

export interface EnumTypeSpec {
  type: "string";
  description?: string;
  enum: { value: string; name?: string }[];
}

export interface ResourceSpec {
  description: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
  required: string[];
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  license: string;
  repository?: string;
  homepage?: string;
  /** Where the engine downloads the plugin archive from; set by the release (provider/release). */
  pluginDownloadURL?: string;
  meta: { moduleFormat: string; supportPack?: boolean };
  config: { variables: Record<string, PropertySpec> };
  provider: {
    description: string;
    inputProperties: Record<string, PropertySpec>;
    properties: Record<string, PropertySpec>;
  };
  resources: Record<string, ResourceSpec>;
  types: Record<string, ObjectTypeSpec | EnumTypeSpec>;
  language?: Record<string, unknown>;
}

/** The Go SDK's module path in the committed SDK; a release may give another (--go-module-path). */
export const DEFAULT_GO_MODULE_PATH = "pulumi-voice-platform/sdk/go";

interface GoLanguageSettings {
  /** What a Go program imports: the module's voiceplatform package. */
  importBasePath: string;
  modulePath: string;
  respectSchemaVersion: boolean;
}

function goLanguageSettings(modulePath: string): GoLanguageSettings {
  return { importBasePath: `${modulePath}/voiceplatform`, modulePath, respectSchemaVersion: true };
}

/**
 * Per-language settings of the generated SDKs (package names, import paths). The Go module has
 * no public path yet: a program requires it through a `replace` directive (README).
 */
export const languageSettings: Record<string, unknown> = {
  nodejs: {
    packageName: "pulumi-voice-platform-sdk",
    packageDescription:
      "Generated SDK of the voiceplatform provider plugin (pulumi-voice-platform).",
    respectSchemaVersion: true,
  },
  python: {
    packageName: "pulumi_voiceplatform",
    respectSchemaVersion: true,
    pyproject: { enabled: true },
  },
  go: goLanguageSettings(DEFAULT_GO_MODULE_PATH),
  csharp: { rootNamespace: "VoicePlatform", respectSchemaVersion: true },
};

export function resourceToken(name: string): string {
  return `${PACKAGE_NAME}:index:${name}`;
}

/** A JSON Schema node as zod writes it, with the fields' facts (field-facts.ts) beside. */
type JsonSchema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  description?: string;
  pulumiType?: string;
  typeName?: string;
  /** The description of the type itself, where a field's own description covers it. */
  typeDescription?: string;
  secret?: boolean;
  set?: boolean;
  replaceOnChange?: boolean;
};

/**
 * The zod schema as JSON Schema; a zod custom check (a FileAsset) becomes Pulumi's Asset, and a
 * named type keeps its own description beside the one a field gives it.
 */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "input"): JsonSchema {
  return z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === "custom") jsonSchema.pulumiType = "asset";
      const meta = z.globalRegistry.get(zodSchema);
      if (meta?.typeName !== undefined && meta.description !== undefined) {
        jsonSchema.typeDescription = meta.description;
      }
    },
  }) as JsonSchema;
}

/** Turns one JSON Schema node into a Pulumi type spec, naming nested objects and enums. */
function toTypeSpec(node: JsonSchema, path: string, types: PackageSchema["types"]): TypeSpec {
  if (node.pulumiType === "asset") return { $ref: "pulumi.json#/Asset" };
  if (node.pulumiType === "integer" || node.pulumiType === "number")
    return { type: node.pulumiType };
  if (node.anyOf !== undefined) {
    return { oneOf: node.anyOf.map((branch) => toTypeSpec(branch, path, types)) };
  }
  if (node.enum !== undefined) {
    const token = resourceToken(typeNameAt(node, path));
    types[token] = {
      type: "string",
      enum: node.enum.map((value) => ({ value: String(value), name: enumName(String(value)) })),
    };
    return { $ref: `#/types/${token}` };
  }
  switch (node.type) {
    case "string":
    case "number":
    case "integer":
    case "boolean":
      return { type: node.type };
    case "array":
      return { type: "array", items: toTypeSpec(node.items ?? {}, path, types) };
    case "object": {
      const token = resourceToken(typeNameAt(node, path));
      const description = node.typeDescription ?? node.description;
      types[token] = {
        type: "object",
        ...(description ? { description } : {}),
        properties: propertiesOf(node, path, types),
        ...(node.required?.length ? { required: [...node.required] } : {}),
      };
      return { $ref: `#/types/${token}` };
    }
    default:
      return { $ref: "pulumi.json#/Any" };
  }
}

function typeNameAt(node: JsonSchema, path: string): string {
  if (node.typeName === undefined) {
    throw new Error(
      `schema: the nested type at "${path}" has no name; give it .meta({ typeName: "..." })`,
    );
  }
  return node.typeName;
}

/** POST_PROCESSING_FINISHED:NOT_INTERESTED → PostProcessingFinishedNotInterested */
function enumName(value: string): string {
  return value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join("");
}

/** The sentences a replace rule adds to a top-level input's description. */
export const REPLACES = "Changing it replaces the resource.";
export const UPDATES_IN_PLACE = "Updates in place.";
/** Added to a resource's summary when no input can change in place. */
export const EVERY_INPUT_REPLACES = "Changing any input replaces it.";
export const IS_SET = "Order does not matter, and repeated items count once.";
export const IS_SECRET = "Secret: encrypted in state, never shown in messages.";
/**
 * Said of a required input the plugin's schema does not demand: an import reads nothing, and
 * Pulumi writes `""` for every required input it could not read into the code it generates.
 */
export const REQUIRED_TO_CREATE =
  "Required to create the object (checked at preview); the SDKs do not demand it, since an object adopted by import may leave it out.";

/** A field's description and what its facts say, each said once, here. */
function describeField(
  node: JsonSchema,
  replace?: boolean,
  requiredToCreate = false,
): string | undefined {
  const sentences = [
    node.description,
    requiredToCreate ? REQUIRED_TO_CREATE : undefined,
    node.set ? IS_SET : undefined,
    node.secret ? IS_SECRET : undefined,
    replace === undefined ? undefined : replace ? REPLACES : UPDATES_IN_PLACE,
  ].filter((sentence) => sentence !== undefined);
  return sentences.length === 0 ? undefined : sentences.join(" ");
}

/**
 * The properties of an object node. `replaces` names the top-level inputs whose change replaces
 * the resource, for a resource some of whose inputs change in place; `requiredToCreate` the
 * required inputs the schema does not demand.
 */
function propertiesOf(
  node: JsonSchema,
  prefix: string,
  types: PackageSchema["types"],
  replaces?: ReadonlySet<string>,
  requiredToCreate?: ReadonlySet<string>,
): Record<string, PropertySpec> {
  const properties: Record<string, PropertySpec> = {};
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = prefix === "" ? name : `${prefix}.${name}`;
    const description = describeField(child, replaces?.has(name), requiredToCreate?.has(name));
    properties[name] = {
      ...toTypeSpec(child, path, types),
      ...(description ? { description } : {}),
      ...(child.secret ? { secret: true } : {}),
    };
  }
  return properties;
}

/** A resource's description: what it is, an example in each SDK's language, how to import it. */
function describeResource(descriptor: ResourceDescriptor<object>, goImportPath: string): string {
  const everyInputReplaces = z.globalRegistry.get(descriptor.inputSchema)?.replaceOnChange;
  return [
    everyInputReplaces ? `${descriptor.summary} ${EVERY_INPUT_REPLACES}` : descriptor.summary,
    "",
    examplesSection(descriptor.example, goImportPath),
    "",
    "## Import",
    "",
    `The API has no read: an import adopts the id and knows only what the id tells (a webhook's \`campaignId\`), so the code \`pulumi import\` generates holds nothing else and runs as it is. Each \`pulumi up\` then records the inputs the program declares, without a call, until they hold every required input (or \`ignoreChanges\` names it): declare them as the platform holds them. The id is ${descriptor.importId}.`,
    "",
    "For the same reason, looking the resource up by id (\`get\` in the SDKs) returns the id and only what the id itself tells (a carrier's \`carrierId\`, a webhook's \`campaignId\`), and warns: nothing else can be read from the platform, so every other property is empty.",
  ].join("\n");
}

function resourceSpec(
  descriptor: ResourceDescriptor<object>,
  types: PackageSchema["types"],
  goImportPath: string,
): ResourceSpec {
  const json = jsonSchemaOf(descriptor.inputSchema);
  const { keys, replaceKeys } = descriptor.diffPlan;
  // Said once for the resource when every input replaces it, else on each input.
  const perInput = json.replaceOnChange === true || keys.length === 0 ? undefined : replaceKeys;
  // Only what an import knows is demanded: the code `pulumi import` writes must pass check.
  const requiredInputs = requiredOnImport(descriptor.inputSchema);
  const requiredToCreate = new Set(
    requiredInputNames(descriptor.inputSchema).filter((key) => !requiredInputs.includes(key)),
  );
  const inputs = propertiesOf(json, "", types, perInput, requiredToCreate);
  const written = jsonSchemaOf(descriptor.outputSchema, "output");
  const outputs: Record<string, PropertySpec> = { ...inputs, ...propertiesOf(written, "", types) };
  return {
    description: describeResource(descriptor, goImportPath),
    inputProperties: inputs,
    requiredInputs,
    properties: outputs,
    required: [...requiredInputs, ...(written.required ?? [])],
  };
}

function providerProperties(): Record<string, PropertySpec> {
  // The provider's inputs are the settings (plugin/provider-config.ts).
  const json = jsonSchemaOf(SettingsSchema);
  const properties: Record<string, PropertySpec> = {};
  for (const [name, node] of Object.entries(json.properties ?? {})) {
    const source = settingSources[name as keyof typeof settingSources];
    properties[name] = {
      ...toTypeSpec(node, name, {}),
      ...(node.description ? { description: node.description } : {}),
      defaultInfo: { environment: [source.env] },
      ...(secretSettings.includes(name as SettingName) ? { secret: true } : {}),
    };
  }
  return properties;
}

/** Set by the release bundle (provider/release/plugin-bundle.ts): no package.json travels with it. */
declare const __VOICEPLATFORM_VERSION__: string | undefined;

/** This package's version, from the package.json above this file (source or built). */
export function packageVersion(): string {
  if (typeof __VOICEPLATFORM_VERSION__ === "string") return __VOICEPLATFORM_VERSION__;
  let dir = __dirname;
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "pulumi-voice-platform" && manifest.version) return manifest.version;
    } catch {
      // No package.json here: look one folder up.
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("pulumi-voice-platform's package.json was not found");
    dir = parent;
  }
}

let servedSchema: string | undefined;

/** GetSchema's answer, built once per process (the single executable's snapshot holds it built). */
export function servedSchemaText(): string {
  servedSchema ??= JSON.stringify(packageSchema());
  return servedSchema;
}

/** What a release changes in the schema; the committed schema and SDKs use none of it. */
export interface ReleaseSchemaOptions {
  /** The release's version, from its tag (default this package's). */
  version?: string;
  /** The project's public repository and home page (provider/release/public-address.ts). */
  repository?: string;
  homepage?: string;
  /** The engine downloads `<url>/pulumi-resource-voiceplatform-v<version>-<os>-<arch>.tar.gz`. */
  pluginDownloadURL?: string;
  /** The Go SDK's module path (default DEFAULT_GO_MODULE_PATH). */
  goModulePath?: string;
}

/** The package schema object; `JSON.stringify` it for GetSchema. */
export function packageSchema(release: ReleaseSchemaOptions = {}): PackageSchema {
  const types: PackageSchema["types"] = {};
  const resourceSpecs: Record<string, ResourceSpec> = {};
  // The examples import the package the SDK's own go.mod names, release or not.
  const go = goLanguageSettings(release.goModulePath ?? DEFAULT_GO_MODULE_PATH);
  for (const descriptor of resources) {
    resourceSpecs[resourceToken(descriptor.type)] = resourceSpec(
      descriptor,
      types,
      go.importBasePath,
    );
  }
  const providerInputs = providerProperties();
  const stringOutputs = Object.fromEntries(
    Object.entries(providerInputs)
      .filter(([, spec]) => spec.type === "string")
      .map(([name, { defaultInfo: _default, ...spec }]) => [name, spec]),
  );
  return {
    name: PACKAGE_NAME,
    displayName: "Voice Platform",
    version: release.version ?? packageVersion(),
    description:
      "Cloned voices, SIP carriers and campaign webhooks of a voice-calling platform as code.",
    keywords: ["pulumi", "voiceplatform", "category/utility", "kind/native"],
    license: "Apache-2.0",
    ...(release.repository === undefined ? {} : { repository: release.repository }),
    ...(release.homepage === undefined ? {} : { homepage: release.homepage }),
    // supportPack: the SDKs are complete packages (the Go one with its own go.mod).
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: {
      variables: providerInputs,
    },
    provider: {
      description:
        "The voiceplatform provider. Each instance has its own key and addresses; inputs left out fall back to the environment variables.",
      inputProperties: providerInputs,
      properties: stringOutputs,
    },
    resources: resourceSpecs,
    types,
    ...(release.pluginDownloadURL === undefined
      ? {}
      : { pluginDownloadURL: release.pluginDownloadURL }),
    language: { ...languageSettings, go },
  };
}
