/**
 * `npm run docs`: the reference documentation, written from the package schema. One page per
 * resource in docs/api-docs/ (the layout of Pulumi's registry, beside its docs/_index.md and
 * docs/installation-configuration.md), with the examples the schema carries, its inputs, outputs,
 * nested types, import and secrets; and the tables the hand-written pages (README.md, docs/*.md)
 * hold between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. Everything is formatted
 * as `npm run format` would, so what this writes is what is committed:
 * test/unit/reference-docs.test.ts fails when a page or a table differs from the schema.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, posix, resolve } from "node:path";
import { goModulePath, PUBLIC_ADDRESS } from "../release/public-address";
import {
  packageSchema,
  packageVersion,
  REQUIRED_TO_CREATE,
  type EnumTypeSpec,
  type ObjectTypeSpec,
  type PackageSchema,
  type PropertySpec,
  type ResourceSpec,
  type TypeSpec,
} from "../schema/package-schema";

const REPO_ROOT = resolve(__dirname, "..", "..");

/** Where the generated resource pages live, relative to the repository. */
export const API_DOCS = "docs/api-docs";

/** A resource's page: `docs/api-docs/sipcarrier.md`, as the registry names its API pages. */
export function resourcePagePath(token: string): string {
  return `${API_DOCS}/${nameOf(token).toLowerCase()}.md`;
}

/** `voiceplatform:index:SipCarrier` → `SipCarrier`. */
function nameOf(token: string): string {
  return token.split(":").pop()!;
}

/** Text for one cell of a Markdown table: one line, no column break. */
function cell(text: string | undefined): string {
  return (text ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ].join("\n");
}

/** The first sentence of a description: what a table row or a page's summary says. */
function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (match?.[1] ?? text).replace(/\s+/g, " ").trim();
}

/** A GitHub heading anchor: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function typeTokenOf(ref: string): string | undefined {
  return ref.startsWith("#/types/") ? ref.slice("#/types/".length) : undefined;
}

/** How a property's type reads: `string`, `list of [SipGateway](#sipgateway)`, `string or Asset`. */
function typeText(spec: TypeSpec): string {
  const ref = spec.$ref as string | undefined;
  if (ref !== undefined) {
    const token = typeTokenOf(ref);
    if (token === undefined) return ref.replace(/^pulumi\.json#\//, "");
    const name = nameOf(token);
    return `[${name}](#${anchor(name)})`;
  }
  if (Array.isArray(spec.oneOf)) return (spec.oneOf as TypeSpec[]).map(typeText).join(" or ");
  if (spec.type === "array") return `list of ${typeText(spec.items as TypeSpec)}`;
  if (spec.type === "object" && spec.additionalProperties !== undefined)
    return `map of ${typeText(spec.additionalProperties as TypeSpec)}`;
  return String(spec.type ?? "any");
}

/** Every object and enum type the properties use, directly or through other types, in order. */
function nestedTypes(schema: PackageSchema, properties: readonly PropertySpec[]): string[] {
  const found: string[] = [];
  const visit = (spec: TypeSpec | undefined) => {
    if (spec === undefined) return;
    const token = typeof spec.$ref === "string" ? typeTokenOf(spec.$ref) : undefined;
    if (token !== undefined && !found.includes(token)) {
      found.push(token);
      const type = schema.types[token];
      if (type !== undefined && "properties" in type)
        Object.values(type.properties).forEach((property) => visit(property));
    }
    visit(spec.items as TypeSpec | undefined);
    visit(spec.additionalProperties as TypeSpec | undefined);
    (spec.oneOf as TypeSpec[] | undefined)?.forEach(visit);
  };
  properties.forEach(visit);
  return found;
}

/**
 * The paths of every secret value among the properties: `registerPassword`, and
 * `advancedWebhook.headers[].value` for a field of every item of a list.
 */
function secretPaths(schema: PackageSchema, properties: Record<string, PropertySpec>): string[] {
  const paths: string[] = [];
  const walk = (spec: TypeSpec, path: string, seen: readonly string[]) => {
    if (spec.secret === true) {
      paths.push(path);
      return;
    }
    if (spec.type === "array") return walk(spec.items as TypeSpec, `${path}[]`, seen);
    const token = typeof spec.$ref === "string" ? typeTokenOf(spec.$ref) : undefined;
    const type = token === undefined ? undefined : schema.types[token];
    if (token === undefined || type === undefined || !("properties" in type)) return;
    if (seen.includes(token)) return;
    for (const [name, property] of Object.entries(type.properties))
      walk(property, `${path}.${name}`, [...seen, token]);
  };
  for (const [name, property] of Object.entries(properties)) walk(property, name, []);
  return paths;
}

const yes = (flag: boolean) => (flag ? "yes" : "");

function propertiesTable(
  properties: Record<string, PropertySpec>,
  required: readonly string[],
  first: string,
): string {
  return table(
    [first, "Type", "Required", "Secret", "Description"],
    Object.entries(properties).map(([name, spec]) => [
      `\`${name}\``,
      typeText(spec),
      required.includes(name)
        ? "yes"
        : spec.description?.includes(REQUIRED_TO_CREATE)
          ? "to create"
          : "",
      yes(spec.secret === true),
      spec.description ?? "",
    ]),
  );
}

function typeSection(schema: PackageSchema, token: string): string {
  const type = schema.types[token]!;
  const name = nameOf(token);
  if ("enum" in type) {
    const values = (type as EnumTypeSpec).enum.map((value) => `- \`${value.value}\``);
    return [`### ${name}`, type.description ?? `One of:`, values.join("\n")].join("\n\n");
  }
  const object = type as ObjectTypeSpec;
  return [
    `### ${name}`,
    object.description ?? "",
    propertiesTable(
      object.properties as Record<string, PropertySpec>,
      object.required ?? [],
      "Property",
    ),
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

const languageNames: Readonly<Record<string, string>> = {
  typescript: "TypeScript",
  python: "Python",
  go: "Go",
  yaml: "YAML",
  csharp: "C#",
};

/**
 * A resource's description split the way Pulumi's generators read it: the summary, the examples
 * between the `{{% examples %}}` shortcodes, and what follows them (the Import section).
 */
function descriptionParts(description: string): {
  summary: string;
  examples: { title: string; blocks: { language: string; code: string }[] }[];
  rest: string;
} {
  const start = description.indexOf("{{% examples %}}");
  const end = description.indexOf("{{% /examples %}}");
  if (start < 0 || end < 0) {
    const importAt = description.indexOf("\n## ");
    return importAt < 0
      ? { summary: description.trim(), examples: [], rest: "" }
      : {
          summary: description.slice(0, importAt).trim(),
          examples: [],
          rest: description.slice(importAt).trim(),
        };
  }
  const inside = description.slice(start, end);
  const examples = [...inside.matchAll(/\{\{% example %\}\}([\s\S]*?)\{\{% \/example %\}\}/g)].map(
    ([, body]) => ({
      title: /^### (.+)$/m.exec(body!)?.[1]?.trim() ?? "Example",
      blocks: [...body!.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map(([, language, code]) => ({
        language: language!,
        code: code!.replace(/\n$/, ""),
      })),
    }),
  );
  return {
    summary: description.slice(0, start).trim(),
    examples,
    rest: description.slice(end + "{{% /examples %}}".length).trim(),
  };
}

function examplesSection(parts: ReturnType<typeof descriptionParts>): string {
  if (parts.examples.length === 0) return "";
  return [
    "## Example usage",
    ...parts.examples.flatMap((example) => [
      `### ${example.title}`,
      ...example.blocks.flatMap(({ language, code }) => [
        `**${languageNames[language] ?? language}**`,
        `\`\`\`${language}\n${code}\n\`\`\``,
      ]),
    ]),
  ].join("\n\n");
}

function frontMatter(title: string, description: string): string {
  return [
    "---",
    `title: ${JSON.stringify(title)}`,
    `meta_desc: ${JSON.stringify(description)}`,
    "---",
  ].join("\n");
}

/** The reference page of one resource, unformatted. */
function resourcePage(schema: PackageSchema, token: string, resource: ResourceSpec): string {
  const name = nameOf(token);
  const parts = descriptionParts(resource.description);
  const outputs = Object.fromEntries(
    Object.entries(resource.properties).filter(([key]) => !(key in resource.inputProperties)),
  );
  const nested = nestedTypes(schema, [
    ...Object.values(resource.inputProperties),
    ...Object.values(outputs),
  ]);
  const secrets = secretPaths(schema, resource.inputProperties);
  const sections = [
    frontMatter(name, firstSentence(parts.summary)),
    "<!-- Written by `npm run docs` from the package schema: edit the resource's descriptor, not this page. -->",
    `# ${name}`,
    `Type token \`${token}\` in the plugin's SDKs and YAML. TypeScript programs also have the dynamic resource \`${name}\` of \`pulumi-voice-platform\`, with the same inputs and outputs.`,
    parts.summary,
    examplesSection(parts),
    "## Inputs",
    propertiesTable(resource.inputProperties, resource.requiredInputs, "Input"),
    "## Outputs",
    "Every input is also an output, as the stack stores it, and so is `id` (see [Import](#import)). Beyond them:",
    table(
      ["Output", "Type", "Always set", "Description"],
      Object.entries(outputs).map(([key, spec]) => [
        `\`${key}\``,
        typeText(spec),
        yes(resource.required.includes(key)),
        spec.description ?? "",
      ]),
    ),
    ...(nested.length === 0
      ? []
      : ["## Nested types", ...nested.map((type) => typeSection(schema, type))]),
    parts.rest,
    "## Secrets",
    secrets.length === 0
      ? `${name} has no secret input.`
      : `Stored as secrets in state however the program wrote them, and never shown in a message (a check failure shows \`[secret]\`): ${secrets.map((path) => `\`${path}\``).join(", ")}.`,
  ];
  return `${sections.filter((section) => section !== "").join("\n\n")}\n`;
}

/** A link from the page at `from` (a path in the repository) to the path `to`. */
function linkFrom(from: string, to: string): string {
  const link = posix.relative(posix.dirname(from), to);
  return link === "" ? posix.basename(to) : link;
}

/** The tables hand-written pages hold, each written for the page at `page` (its links). */
export function generatedBlocks(schema: PackageSchema, page: string): Record<string, string> {
  return {
    resources: table(
      ["Resource", "Type token", "What it is"],
      Object.entries(schema.resources).map(([token, resource]) => [
        `[\`${nameOf(token)}\`](${linkFrom(page, resourcePagePath(token))})`,
        `\`${token}\``,
        firstSentence(descriptionParts(resource.description).summary),
      ]),
    ),
    settings: table(
      ["Setting", "Stack config key", "Environment variable", "Secret", "Meaning"],
      Object.entries(schema.config.variables).map(([name, spec]) => [
        `\`${name}\``,
        `\`${schema.name}:${name}\``,
        (spec.defaultInfo?.environment ?? []).map((variable) => `\`${variable}\``).join(", "),
        yes(spec.secret === true),
        spec.description ?? "",
      ]),
    ),
  };
}

const BLOCK = /(<!-- generated:([\w-]+)[^>]*-->)[\s\S]*?(<!-- \/generated:\2 -->)/g;

/** The page's text with every generated block written anew; an unknown block name is an error. */
export function withBlocks(text: string, blocks: Record<string, string>, page: string): string {
  return text.replace(BLOCK, (_whole, open: string, name: string, close: string) => {
    const block = blocks[name];
    if (block === undefined) {
      throw new Error(
        `${page}: no generated block is called "${name}" (there are ${Object.keys(blocks).join(", ")})`,
      );
    }
    return `${open}\n\n${block}\n\n${close}`;
  });
}

/** The hand-written pages that may hold generated blocks: README.md and docs/*.md. */
export function handWrittenPages(root: string = REPO_ROOT): string[] {
  const docs = readdirSync(join(root, "docs"), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => `docs/${entry.name}`);
  return ["README.md", ...docs.sort()];
}

/**
 * The text as `npm run format` leaves it: prettier's standalone build (its CommonJS entry loads
 * the formatter by a dynamic import, which test processes cannot run), with the plugins that
 * format a page and the code blocks in it, and the repository's options.
 */
async function formatted(root: string, text: string): Promise<string> {
  const prettier = require("prettier/standalone") as typeof import("prettier/standalone");
  const plugins = ["markdown", "babel", "estree", "typescript", "yaml"].map(
    (name) => require(`prettier/plugins/${name}`) as import("prettier").Plugin,
  );
  const options = JSON.parse(readFileSync(join(root, ".prettierrc.json"), "utf8")) as object;
  return prettier.format(text, { ...options, parser: "markdown", plugins });
}

/**
 * The schema as a release publishes it: the Go examples import the module a user fetches
 * (`<public address>/provider/sdk/go`), not the module path of the repository's own SDK.
 */
export function publishedSchema(): PackageSchema {
  return packageSchema({ goModulePath: goModulePath(PUBLIC_ADDRESS, packageVersion()) });
}

/**
 * Every file `npm run docs` writes, by path in the repository, with its formatted text: the
 * resource pages, and the hand-written pages as they are on disk with their blocks written anew.
 */
export async function referenceDocs(
  root: string = REPO_ROOT,
  schema: PackageSchema = publishedSchema(),
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [token, resource] of Object.entries(schema.resources)) {
    const path = resourcePagePath(token);
    files.set(path, await formatted(root, resourcePage(schema, token, resource)));
  }
  for (const page of handWrittenPages(root)) {
    const text = readFileSync(join(root, page), "utf8");
    const written = withBlocks(text, generatedBlocks(schema, page), page);
    files.set(page, await formatted(root, written));
  }
  return files;
}

/** Resource pages on disk that no resource of the schema has (a resource renamed or removed). */
export function stalePages(files: ReadonlyMap<string, string>, root: string = REPO_ROOT): string[] {
  const folder = join(root, API_DOCS);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .map((name) => `${API_DOCS}/${name}`)
    .filter((path) => !files.has(path));
}

async function main(): Promise<void> {
  const files = await referenceDocs();
  for (const [path, text] of files) {
    const file = join(REPO_ROOT, path);
    if (existsSync(file) && readFileSync(file, "utf8") === text) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    process.stdout.write(`wrote ${path}\n`);
  }
  for (const path of stalePages(files)) {
    rmSync(join(REPO_ROOT, path));
    process.stdout.write(`removed ${path}\n`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`docs: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
