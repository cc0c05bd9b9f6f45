/**
 * The package's hand-written TypeScript sources (provider/, without the generated SDKs and the
 * dynamic front end's generated files), parsed, for tests that hold the code to a rule of the
 * house (docs/architecture.md).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as ts from "typescript";

export const PROVIDER = join(__dirname, "..", "..", "provider");

const GENERATED = ["sdk", join("dynamic", "generated")];

export interface ProviderSource {
  /** The path under provider/, e.g. `cli/errors.ts`. */
  readonly path: string;
  readonly file: ts.SourceFile;
}

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return GENERATED.includes(relative(PROVIDER, path)) ? [] : typescriptFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

export function providerSources(): ProviderSource[] {
  return typescriptFiles(PROVIDER).map((path) => ({
    path: relative(PROVIDER, path).split("\\").join("/"),
    file: ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true),
  }));
}

/** Where a node stands, as `path:line`. */
export function whereIs(source: ProviderSource, node: ts.Node): string {
  const { line } = source.file.getLineAndCharacterOfPosition(node.getStart());
  return `${source.path}:${line + 1}`;
}
