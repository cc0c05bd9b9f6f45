/**
 * The zod input schemas are the one source of names, types, required fields and descriptions
 * (the plugin derives its Pulumi schema from them): every field carries a one-line description,
 * the same words as the generated XArgs doc comment the TypeScript user sees, and the committed
 * XArgs file is what `npm run args` writes.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";
import { z } from "zod";
import { ARGS_FILE, formattedArgsText } from "../../provider/codegen/write-args";
import { resources } from "../../provider/resources";

/** Every object field below a schema, by dotted path, with its description. */
function fieldsOf(schema: z.ZodType, prefix = ""): Array<[string, string | undefined]> {
  let inner: z.ZodType = schema;
  for (;;) {
    if (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodArray) inner = inner.element as z.ZodType;
    else break;
  }
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) => [
    [`${prefix}${key}`, descriptionOf(field)] as [string, string | undefined],
    ...fieldsOf(field, `${prefix}${key}.`),
  ]);
}

/** A field's description, set on it or on the type it makes optional. */
function descriptionOf(field: z.ZodType): string | undefined {
  let current: z.ZodType | undefined = field;
  while (current !== undefined) {
    if (current.description !== undefined) return current.description;
    current = current instanceof z.ZodOptional ? (current.unwrap() as z.ZodType) : undefined;
  }
  return undefined;
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

test("the committed XArgs types are what `npm run args` writes", () => {
  expect(readFileSync(ARGS_FILE, "utf8")).toBe(formattedArgsText());
});

describe.each(resources.map((descriptor) => [descriptor.type, descriptor] as const))(
  "%s",
  (kind, descriptor) => {
    const schema = descriptor.inputSchema;
    const args = `${kind}Args`;

    test("every input field has a one-line description", () => {
      const missing = fieldsOf(schema)
        .filter(([, description]) => !description || description.includes("\n"))
        .map(([path]) => path);
      expect(missing).toEqual([]);
    });

    test("the descriptions are the XArgs doc comments", () => {
      const docs = docComments(args);
      const described = Object.fromEntries(fieldsOf(schema));
      expect(described).toEqual(Object.fromEntries(docs));
    });
  },
);
