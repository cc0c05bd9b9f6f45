/**
 * The zod input schemas are the one source of names, types, required fields and descriptions
 * (the plugin derives its Pulumi schema from them): every field carries a one-line description,
 * the same words as the generated XArgs doc comment the TypeScript user sees, followed by what
 * the field's facts say (a set, a secret, its replace rule), and the committed generated files of
 * the dynamic front end (XArgs, classes, one stub per kind) are what `npm run args` writes.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import ts from "typescript";
import { z } from "zod";
import { DYNAMIC_DIR, formattedDynamicFiles } from "../../provider/codegen/dynamic-files";
import {
  IS_SECRET,
  IS_SET,
  REPLACES,
  UPDATES_IN_PLACE,
} from "../../provider/schema/package-schema";
import { resources } from "../../provider/resources";

const ARGS_FILE = join(DYNAMIC_DIR, "args.ts");

/**
 * Every object field below a schema, by dotted path, with its doc comment: its description, then
 * what its facts say. A top-level input says its replace rule, unless every input replaces.
 */
function fieldsOf(
  schema: z.ZodType,
  prefix = "",
  replaceRule = true,
): Array<[string, string | undefined]> {
  let inner: z.ZodType = schema;
  for (;;) {
    if (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodArray) inner = inner.element as z.ZodType;
    else break;
  }
  if (!(inner instanceof z.ZodObject)) return [];
  const everyInputReplaces = metaOf(inner).replaceOnChange === true;
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) => {
    const meta = metaOf(field);
    const rule =
      !replaceRule || everyInputReplaces
        ? []
        : [meta.replaceOnChange ? REPLACES : UPDATES_IN_PLACE];
    const doc = [
      meta.description,
      ...(meta.set ? [IS_SET] : []),
      ...(meta.secret ? [IS_SECRET] : []),
      ...rule,
    ];
    return [
      [`${prefix}${key}`, meta.description === undefined ? undefined : doc.join(" ")] as [
        string,
        string | undefined,
      ],
      ...fieldsOf(field, `${prefix}${key}.`, false),
    ];
  });
}

/** A field's meta, set on it or on the type it makes optional (the outer one wins). */
function metaOf(field: z.ZodType): z.GlobalMeta {
  const inner = field instanceof z.ZodOptional ? metaOf(field.unwrap() as z.ZodType) : {};
  return { ...inner, ...(z.globalRegistry.get(field) ?? {}) };
}

/** The doc comments of an interface's properties, following nested XArgs interfaces. */
function docComments(name: string, prefix = ""): Map<string, string> {
  const path = ARGS_FILE;
  const source = ts.createSourceFile(
    path,
    readFileSync(path, "utf8"),
    ts.ScriptTarget.ES2022,
    true,
  );
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const docs = new Map<string, string>();
  const walk = (iface: ts.InterfaceDeclaration, at: string) => {
    for (const member of iface.members) {
      if (!ts.isPropertySignature(member) || !ts.isIdentifier(member.name)) continue;
      const doc = ts
        .getJSDocCommentsAndTags(member)
        .map((d) => ts.getTextOfJSDocComment(d.comment));
      docs.set(`${at}${member.name.text}`, (doc.join(" ") ?? "").replace(/\s+/g, " ").trim());
      const nested = member.type?.getText().match(/\b(\w+Args)\b/)?.[1];
      const target = nested === undefined ? undefined : interfaces.get(nested);
      if (target) walk(target, `${at}${member.name.text}.`);
    }
  };
  walk(interfaces.get(name)!, prefix);
  return docs;
}

describe("the generated files of the dynamic front end", () => {
  const files = [...formattedDynamicFiles()];

  test.each(files.map(([path, text]) => [basename(path), path, text]))(
    "%s is what `npm run args` writes",
    (_name, path, text) => {
      const fix = "Run `npm run args` and commit provider/dynamic.";
      const committed = existsSync(path) ? readFileSync(path, "utf8") : "(missing)";
      expect({ matches: committed === text, fix }).toEqual({ matches: true, fix });
    },
  );
});

describe.each(resources.map((descriptor) => [descriptor.type, descriptor] as const))(
  "%s",
  (kind, descriptor) => {
    const schema = descriptor.inputSchema;
    const args = `${kind}Args`;

    test("every input field has a one-line description", () => {
      const missing = fieldsOf(schema, "", false)
        .filter(([, description]) => !description || description.includes("\n"))
        .map(([path]) => path);
      expect(missing).toEqual([]);
    });

    test("the descriptions, and what the facts say, are the XArgs doc comments", () => {
      const docs = docComments(args);
      const described = Object.fromEntries(fieldsOf(schema));
      expect(described).toEqual(Object.fromEntries(docs));
    });
  },
);
