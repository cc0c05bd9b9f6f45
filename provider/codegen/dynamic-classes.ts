/**
 * The text of provider/dynamic/generated/resources.ts, the resource classes a TypeScript program
 * declares: one per descriptor, each output declared with its schema description and the type
 * its descriptor's state gives it (dynamic/dynamic-class.ts holds what they share).
 */
import { resources } from "../resources";
import { REQUIRED_TO_CREATE, resourceToken, type PackageSchema } from "../schema/package-schema";

function docComment(text: string, indent: string): string {
  return `${indent}/** ${text.replace(/\*\//g, "*\\/")} */\n`;
}

/** Names `CustomResource` itself declares. */
const RESERVED = new Set(["id", "urn"]);

function classText(descriptor: (typeof resources)[number], schema: PackageSchema): string {
  const kind = descriptor.type;
  const spec = schema.resources[resourceToken(kind)]!;
  const outputs = Object.entries(spec.properties).map(([name, property]) => {
    if (RESERVED.has(name)) throw new Error(`${kind}: an output cannot be named ${name}`);
    // The dynamic resources import nothing: the schema's note on required inputs is not theirs.
    const description = (property.description ?? name).replace(` ${REQUIRED_TO_CREATE}`, "");
    return `${docComment(description, "  ")}  declare readonly ${name}: pulumi.Output<StateOfKind<"${kind}">["${name}"]>;\n`;
  });
  const summary = spec.description.split("\n")[0]!;
  const adopt =
    descriptor.adoptWith?.("<id>") ??
    `pulumi import of the plugin's resources (voiceplatform:index:${kind})`;
  return [
    docComment(summary, ""),
    `export class ${kind} extends pulumi.CustomResource {\n`,
    ...outputs,
    "\n",
    `  constructor(name: string, args: ${kind}Args, opts?: pulumi.CustomResourceOptions) {\n`,
    `    super(...dynamicArgs("${kind}", name, args, opts));\n`,
    "  }\n\n",
    docComment(
      `Refused: a dynamic resource cannot read an object by id; adopt one with ${adopt}.`,
      "  ",
    ),
    `  static get(name: string, id: pulumi.Input<string>): ${kind} {\n`,
    // Constructed with the \`id\` option, which the constructor refuses at preview (dynamic-class.ts).
    `    return new ${kind}(name, {} as ${kind}Args, { id });\n`,
    "  }\n",
    "}\n",
  ].join("");
}

export function classesText(schema: PackageSchema): string {
  const kinds = resources.map((descriptor) => descriptor.type);
  return [
    'import * as pulumi from "@pulumi/pulumi";\n',
    `import type { ${kinds.map((kind) => `${kind}Args`).join(", ")} } from "./args";\n`,
    'import { dynamicArgs, type StateOfKind } from "../dynamic-class";\n',
    ...resources.map((descriptor) => `\n${classText(descriptor, schema)}`),
  ].join("");
}
