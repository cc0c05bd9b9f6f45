/**
 * One error root, true (docs/architecture.md): every error class of the package extends
 * VoicePlatformError (settings/errors.ts), stands in its floor's errors room (`errors.ts` of its
 * folder), and declares no `name` of its own: the root names each error after its class.
 */
import { dirname, join, normalize } from "node:path";
import * as ts from "typescript";
import { providerSources, whereIs, type ProviderSource } from "../support/provider-sources";

interface ClassFacts {
  readonly name: string;
  readonly source: ProviderSource;
  readonly node: ts.ClassDeclaration;
  /** The name its `extends` clause gives, as written in its file. */
  readonly base: string | undefined;
}

/** The classes a file imports from the package, by the name it uses: file path and exported name. */
function importsOf(source: ProviderSource): Map<string, { path: string; name: string }> {
  const found = new Map<string, { path: string; name: string }>();
  for (const statement of source.file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const specifier = statement.moduleSpecifier.text;
    const bindings = statement.importClause?.namedBindings;
    if (!specifier.startsWith(".") || bindings === undefined || !ts.isNamedImports(bindings))
      continue;
    const path = `${normalize(join(dirname(source.path), specifier))
      .split("\\")
      .join("/")}.ts`;
    for (const element of bindings.elements) {
      found.set(element.name.text, { path, name: (element.propertyName ?? element.name).text });
    }
  }
  return found;
}

function classesOf(source: ProviderSource): ClassFacts[] {
  return source.file.statements.filter(ts.isClassDeclaration).map((node) => {
    const heritage = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
    const expression = heritage?.types[0]?.expression;
    return {
      name: node.name?.text ?? "(anonymous)",
      source,
      node,
      base: expression !== undefined && ts.isIdentifier(expression) ? expression.text : undefined,
    };
  });
}

/** The package's error classes by name, and every problem with them (`path:line: what, fix`). */
function errorClasses(): { names: string[]; problems: string[] } {
  const sources = providerSources();
  const classes = new Map<string, ClassFacts>();
  for (const source of sources) {
    for (const facts of classesOf(source)) classes.set(`${source.path}#${facts.name}`, facts);
  }
  const imports = new Map(sources.map((source) => [source.path, importsOf(source)]));
  const baseOf = (facts: ClassFacts): ClassFacts | undefined => {
    if (facts.base === undefined) return undefined;
    const local = classes.get(`${facts.source.path}#${facts.base}`);
    const imported = imports.get(facts.source.path)?.get(facts.base);
    return local ?? (imported && classes.get(`${imported.path}#${imported.name}`));
  };
  const names: string[] = [];
  const problems: string[] = [];
  for (const facts of classes.values()) {
    let root = facts;
    for (let base = baseOf(root); base !== undefined; base = baseOf(root)) root = base;
    // Not an error: its chain ends at a class that is not Error (or extends nothing).
    if (root.base !== "Error") continue;
    names.push(facts.name);
    const where = whereIs(facts.source, facts.node);
    if (`${root.source.path}#${root.name}` !== "settings/errors.ts#VoicePlatformError") {
      problems.push(
        `${where}: ${facts.name} is an Error but not a VoicePlatformError: extend it, or a class of its floor's errors room`,
      );
    }
    if (!facts.source.path.endsWith("/errors.ts")) {
      problems.push(
        `${where}: ${facts.name} stands outside its floor's errors room: move it into ${dirname(facts.source.path)}/errors.ts`,
      );
    }
    const ownName = facts.node.members.find((member) => member.name?.getText() === "name");
    if (ownName !== undefined) {
      problems.push(
        `${where}: ${facts.name} sets its own name: drop it, the root names every error after its class`,
      );
    }
  }
  return { names, problems };
}

test("every error class extends VoicePlatformError in its floor's errors room, named by the root", () => {
  const { names, problems } = errorClasses();
  expect(problems).toEqual([]);
  // A rule that found no class would hold whatever the code is.
  expect(names).toEqual(
    expect.arrayContaining([
      "VoicePlatformError",
      "ConfigurationError",
      "ApiTimeoutError",
      "SampleChangedError",
      "TimeoutError",
      "IncompleteCreateError",
      "UsageError",
      "PulumiCliError",
      "LockedRefusal",
      "EmulatorError",
      "ErrorAnswer",
      "ReleaseInputError",
      "PublishRefusal",
      "ReleaseToolError",
    ]),
  );
});
