/**
 * The Pulumi package schema of the `voiceplatform` plugin, derived from the zod schemas the
 * resources validate their inputs with: names, types, required inputs and one-line descriptions
 * come from there, secrets and outputs from the resource descriptors. GetSchema serves it, and SDKs are
 * generated from it (`npm run schema -- <file>` writes it).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { ResourceDescriptor } from "../core/resource-descriptor";
import { resources } from "../resources";
import {
  secretSettings,
  settingSources,
  SettingsSchema,
  type SettingName,
} from "../settings/config";
import {
  campaignWebhookExample,
  examplesSection,
  sipCarrierExample,
  voiceExample,
  type ResourceExample,
} from "./resource-examples";

export const PACKAGE_NAME = "voiceplatform";

/** A Pulumi schema type spec (`type`, `items`, `$ref`, `oneOf`, …). */
export type TypeSpec = Record<string, unknown>;

export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  defaultInfo?: { environment: string[] };
}

export type { ObjectTypeSpec } from "../core/resource-descriptor";
import type { ObjectTypeSpec } from "../core/resource-descriptor";

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

function goLanguageSettings(modulePath: string): Record<string, unknown> {
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

type JsonSchema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  description?: string;
  pulumiType?: string;
};

/** The zod schema as JSON Schema; a zod custom check (a FileAsset) becomes Pulumi's Asset. */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === "custom") jsonSchema.pulumiType = "asset";
    },
  }) as JsonSchema;
}

/** Turns one JSON Schema node into a Pulumi type spec, naming nested objects and enums. */
function toTypeSpec(
  node: JsonSchema,
  path: string,
  names: Readonly<Record<string, string>>,
  types: PackageSchema["types"],
): TypeSpec {
  if (node.pulumiType === "asset") return { $ref: "pulumi.json#/Asset" };
  if (node.pulumiType === "integer" || node.pulumiType === "number")
    return { type: node.pulumiType };
  if (node.anyOf !== undefined) {
    const branches = node.anyOf.map((branch) => toTypeSpec(branch, path, names, types));
    return { oneOf: branches };
  }
  if (node.enum !== undefined) {
    const token = resourceToken(typeName(names, path));
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
      return { type: "array", items: toTypeSpec(node.items ?? {}, path, names, types) };
    case "object": {
      const token = resourceToken(typeName(names, path));
      types[token] = {
        type: "object",
        ...(node.description ? { description: node.description } : {}),
        properties: propertiesOf(node, path, names, types),
        ...(node.required?.length ? { required: [...node.required] } : {}),
      };
      return { $ref: `#/types/${token}` };
    }
    default:
      return { $ref: "pulumi.json#/Any" };
  }
}

function typeName(names: Readonly<Record<string, string>>, path: string): string {
  const name = names[path];
  if (name === undefined) {
    throw new Error(`schema: the nested type at "${path}" has no name; add it to objectTypes`);
  }
  return name;
}

/** POST_PROCESSING_FINISHED:NOT_INTERESTED → PostProcessingFinishedNotInterested */
function enumName(value: string): string {
  return value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join("");
}

function propertiesOf(
  node: JsonSchema,
  prefix: string,
  names: Readonly<Record<string, string>>,
  types: PackageSchema["types"],
): Record<string, PropertySpec> {
  const properties: Record<string, PropertySpec> = {};
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = prefix === "" ? name : `${prefix}.${name}`;
    properties[name] = {
      ...toTypeSpec(child, path, names, types),
      ...(child.description ? { description: child.description } : {}),
    };
  }
  return properties;
}

/**
 * Marks a secret input path secret: a top-level input on the resource, a nested one
 * (`advancedWebhook.headers[].value`) on the property of the nested type that holds it.
 */
function markSecret(
  path: string,
  inputs: Record<string, PropertySpec>,
  names: Readonly<Record<string, string>>,
  types: PackageSchema["types"],
): void {
  const segments = path.replace(/\[\]/g, "").split(".");
  const leaf = segments.pop()!;
  if (segments.length === 0) {
    inputs[leaf] = { ...inputs[leaf], secret: true };
    return;
  }
  const holder = types[resourceToken(typeName(names, segments.join(".")))] as ObjectTypeSpec;
  holder.properties[leaf] = { ...holder.properties[leaf], secret: true };
}

/** Each SDK's docstring shows an example in its own language (Pulumi's examples shortcodes). */
const examples: Readonly<Record<string, ResourceExample>> = {
  Voice: voiceExample,
  SipCarrier: sipCarrierExample,
  CampaignWebhook: campaignWebhookExample,
};

/** A resource's description: what it is, an example in each SDK's language, how to import it. */
function describeResource(descriptor: ResourceDescriptor<object>): string {
  return [
    descriptor.summary,
    "",
    examplesSection(examples[descriptor.type]!),
    "",
    "## Import",
    "",
    `The API has no read: an import adopts the id and the next update records the declared inputs, without a call. The id is ${descriptor.importId}.`,
    "",
    "For the same reason, looking the resource up by id (\`get\` in the SDKs) returns the id and only what the id itself tells (a carrier's \`carrierId\`, a webhook's \`campaignId\`), and warns: nothing else can be read from the platform, so every other property is empty.",
  ].join("\n");
}

function resourceSpec(
  descriptor: ResourceDescriptor<object>,
  types: PackageSchema["types"],
): ResourceSpec {
  const json = inputJsonSchema(descriptor.inputSchema);
  const inputs = propertiesOf(json, "", descriptor.objectTypes, types);
  for (const path of descriptor.secretInputs)
    markSecret(path, inputs, descriptor.objectTypes, types);
  const outputs: Record<string, PropertySpec> = { ...inputs };
  for (const output of descriptor.outputs) {
    outputs[output.name] = { ...output.type, description: output.description };
  }
  for (const [name, spec] of Object.entries(descriptor.outputTypes ?? {})) {
    types[resourceToken(name)] = spec;
  }
  const requiredInputs = [...(json.required ?? [])];
  return {
    description: describeResource(descriptor),
    inputProperties: inputs,
    requiredInputs,
    properties: outputs,
    required: [
      ...requiredInputs,
      ...descriptor.outputs.filter((output) => output.always).map((output) => output.name),
    ],
  };
}

function providerProperties(): Record<string, PropertySpec> {
  // The provider's inputs are the settings (plugin/provider-config.ts).
  const json = inputJsonSchema(SettingsSchema);
  const properties: Record<string, PropertySpec> = {};
  for (const [name, node] of Object.entries(json.properties ?? {})) {
    const source = settingSources[name as keyof typeof settingSources];
    properties[name] = {
      ...toTypeSpec(node, name, {}, {}),
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

/** What a release changes in the schema; the committed schema and SDKs use neither. */
export interface ReleaseSchemaOptions {
  /** The engine downloads `<url>/pulumi-resource-voiceplatform-v<version>-<os>-<arch>.tar.gz`. */
  pluginDownloadURL?: string;
  /** The Go SDK's module path (default DEFAULT_GO_MODULE_PATH). */
  goModulePath?: string;
}

/** The package schema object; `JSON.stringify` it for GetSchema. */
export function packageSchema(release: ReleaseSchemaOptions = {}): PackageSchema {
  const types: PackageSchema["types"] = {};
  const resourceSpecs: Record<string, ResourceSpec> = {};
  for (const descriptor of resources) {
    resourceSpecs[resourceToken(descriptor.type)] = resourceSpec(descriptor, types);
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
    version: packageVersion(),
    description:
      "Cloned voices, SIP carriers and campaign webhooks of a voice-calling platform as code.",
    keywords: ["pulumi", "voiceplatform", "category/utility", "kind/native"],
    license: "Apache-2.0",
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
    language:
      release.goModulePath === undefined
        ? languageSettings
        : { ...languageSettings, go: goLanguageSettings(release.goModulePath) },
  };
}
