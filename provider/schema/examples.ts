/**
 * A resource's example, as every SDK's documentation shows it: Pulumi's generators keep, in each
 * SDK's docstring, only the code block of that SDK's language inside the `{{% examples %}}`
 * shortcodes, so every language's users see their own. The examples live on the descriptors; the
 * programs under examples/ declare the same resources and run in the tests.
 */
import type { ResourceExample } from "../core/resource-descriptor";

/**
 * A Go program around the body of its `pulumi.Run` function, with the packages the body uses:
 * `importPath` is the schema's Go `importBasePath`, so a release's SDK shows its own module.
 */
export function goProgram(body: string, importPath: string): string {
  return [
    "package main",
    "",
    "import (",
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ...(/\bconfig\./.test(body) ? ['\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'] : []),
    `\t"${importPath}"`,
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...body.split("\n").map((line) => (line === "" ? "" : `\t\t${line}`)),
    "\t})",
    "}",
  ].join("\n");
}

/** The `{{% examples %}}` section of a resource's description. */
export function examplesSection(example: ResourceExample, goImportPath: string): string {
  const block = (language: string, code: string) => ["```" + language, code, "```"].join("\n");
  return [
    "{{% examples %}}",
    "## Example Usage",
    "{{% example %}}",
    `### ${example.title}`,
    "",
    block("typescript", example.typescript),
    block("python", example.python),
    block("go", goProgram(example.go, goImportPath)),
    block("yaml", example.yaml),
    "{{% /example %}}",
    "{{% /examples %}}",
  ].join("\n");
}
