/**
 * A provider's state lives in state slots (settings/process-state.ts), never in a module: the
 * plugin's shared server serves many providers from one process, and a module's `let`, or a Map,
 * Set, array or object of a module that is changed, would be one value for all of them. Each
 * exception says why one value per process is right.
 */
import * as ts from "typescript";
import { providerSources, whereIs, type ProviderSource } from "../support/provider-sources";

/** `path:name` of each module-level variable allowed to change, and why. */
const ALLOWED: Record<string, string> = {
  "settings/call-context.ts:context":
    "the one AsyncLocalStorage of every call, made with the first call (not in the startup snapshot)",
  "plugin/engine-log.ts:sendToEngine":
    "the connection to the engine's log: one engine per process, each call's log line carrying its own URN",
  "settings/process-state.ts:processStates":
    "the states of the process's own provider: what the state slots answer outside the shared server",
  "platform/connection-pool.ts:loadedUndici":
    "undici, loaded on first use: the same module for every provider",
  "platform/case-folding.ts:mappedCodePoints":
    "answers of a pure function (a code point's folded form), the same for every provider",
  "platform/html-references.ts:emitted":
    "the entity decoder's output, filled and read within one synchronous call",
  "platform/html-references.ts:caselessCache":
    "answers of a pure function (a reference's name in another case), bounded, the same for every provider",
  "schema/package-schema.ts:servedSchema":
    "the schema text, built once per process: the same for every provider",
  "dynamic/dynamic-adapter.ts:engineLogStarted":
    "the dynamic-provider process serves one provider, and forwards its console to the engine once",
  "policy/previous-state.ts:loaded":
    "each previous-state file, read once by the policy pack's own process, which is no provider",
  "emulator/api-pipeline.ts:cutByEmulator":
    "a WeakSet keyed by each response, so every emulator of a process marks only its own connections",
  "core/declared-rules.ts:declared":
    "a WeakMap from each schema's check to the rules it applies, written as the schemas are defined: the same for every provider",
  "dynamic/provider-stubs.ts:texts":
    "each kind's `__provider` text, worked out in the program's process, whose folder does not change",
};

/** Calls that change a Map, Set, array or object they are made on. */
const CHANGING_METHODS = new Set(
  "set add delete clear push pop shift unshift splice sort reverse fill copyWithin".split(" "),
);

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/** What a module-level value is made of, when it can be changed in place. */
function containerOf(init: ts.Expression | undefined): "collection" | "literal" | undefined {
  if (init === undefined) return undefined;
  const inner = ts.isAsExpression(init) || ts.isSatisfiesExpression(init) ? init.expression : init;
  if (ts.isArrayLiteralExpression(inner) || ts.isObjectLiteralExpression(inner)) return "literal";
  const collection =
    ts.isNewExpression(inner) &&
    ts.isIdentifier(inner.expression) &&
    ["Map", "Set", "WeakMap", "WeakSet", "Array"].includes(inner.expression.text);
  return collection ? "collection" : undefined;
}

/** The variable an expression starts from: `x` of `x.a.b` or `x[i]`. */
function rootName(expression: ts.Expression): string | undefined {
  let current = expression;
  while (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current)) {
    current = current.expression;
  }
  return ts.isIdentifier(current) ? current.text : undefined;
}

/**
 * The names `file` changes in place (`x.set(…)`, `x.a.push(…)`, `x[k] = …`, `delete x.k`), and
 * those it hands to a function (`f(x)`), which may change them.
 */
function usesOf(file: ts.SourceFile): { changed: Set<string>; handed: Set<string> } {
  const changed = new Set<string>();
  const handed = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      for (const argument of node.arguments ?? []) {
        if (ts.isIdentifier(argument)) handed.add(argument.text);
      }
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      CHANGING_METHODS.has(node.expression.name.text)
    ) {
      const name = rootName(node.expression.expression);
      if (name !== undefined) changed.add(name);
    }
    const target =
      ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)
        ? node.left
        : ts.isDeleteExpression(node)
          ? node.expression
          : undefined;
    if (target !== undefined && !ts.isIdentifier(target)) {
      const name = rootName(target);
      if (name !== undefined) changed.add(name);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { changed, handed };
}

/** Each module-level variable of `source` that can change, as `path:name` with where it stands. */
function moduleState(source: ProviderSource): { key: string; where: string; what: string }[] {
  const { changed, handed } = usesOf(source.file);
  const found: { key: string; where: string; what: string }[] = [];
  for (const statement of source.file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name)) continue;
      const name = declaration.name.text;
      // A Map or Set handed to a function is there to be changed; an array or object, to be read.
      const container = containerOf(declaration.initializer);
      const changes =
        container !== undefined &&
        (changed.has(name) || (container === "collection" && handed.has(name)));
      const what = !isConst
        ? "a module-level `let`"
        : changes
          ? "a module-level value changed in place"
          : undefined;
      if (what !== undefined) {
        found.push({ key: `${source.path}:${name}`, where: whereIs(source, declaration), what });
      }
    }
  }
  return found;
}

test("no module holds state outside the state slots, but the exceptions that say why", () => {
  const found = providerSources().flatMap(moduleState);
  const unexplained = found
    .filter(({ key }) => ALLOWED[key] === undefined)
    .map(
      ({ where, what }) =>
        `${where}: ${what} is one value for every provider of the shared server: keep it in a state slot (settings/process-state.ts), or add it to ALLOWED with why one value per process is right`,
    );
  expect(unexplained).toEqual([]);
  // An exception whose variable is gone says nothing any more.
  expect(Object.keys(ALLOWED).filter((key) => !found.some((f) => f.key === key))).toEqual([]);
});

test("the rule finds what it looks for", () => {
  const source = (text: string): ProviderSource => ({
    path: "example.ts",
    file: ts.createSourceFile("example.ts", text, ts.ScriptTarget.ES2022, true),
  });
  const whats = (text: string) =>
    moduleState(source(text)).map(({ key, what }) => `${key} ${what}`);
  expect(whats("let count = 0;\nexport let last: string | undefined;")).toEqual([
    "example.ts:count a module-level `let`",
    "example.ts:last a module-level `let`",
  ]);
  expect(
    whats(
      "const seen = new Set<string>();\nconst byId = new Map();\nconst list: string[] = [];\nconst facts = {} as Record<string, number>;\n" +
        "function f() { seen.add('x'); byId.get('y'); list.push('z'); facts.count = 1; }\n" +
        "const handed = new Map();\nclear(handed);",
    ),
  ).toEqual([
    "example.ts:seen a module-level value changed in place",
    "example.ts:list a module-level value changed in place",
    "example.ts:facts a module-level value changed in place",
    "example.ts:handed a module-level value changed in place",
  ]);
  // Read only, or made per call: no state.
  expect(
    whats(
      "const KNOWN = new Set(['a']);\nconst NAMES = ['x'] as const;\nfunction g() { const local = new Map(); local.set(1, 2); return KNOWN.has('a') && NAMES.includes('x'); }",
    ),
  ).toEqual([]);
});
