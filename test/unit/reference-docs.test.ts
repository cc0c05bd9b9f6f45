/**
 * The reference docs say what the schema says: each resource's page under docs/api-docs, and the
 * tables the README and docs/ pages hold between `<!-- generated:NAME -->` markers, are what
 * `npm run docs` writes from the package schema. A new input, a changed description or a new
 * resource fails here until `npm run docs` has run.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  generatedBlocks,
  referenceDocs,
  resourcePagePath,
  stalePages,
  withBlocks,
  publishedSchema,
} from "../../provider/codegen/docs";
import { packageVersion, type PackageSchema } from "../../provider/schema/package-schema";
import { goModulePath, PUBLIC_ADDRESS } from "../../provider/release/public-address";

const REPO_ROOT = join(__dirname, "..", "..");
const schema = publishedSchema();

let files: Map<string, string>;
beforeAll(async () => {
  files = await referenceDocs(REPO_ROOT, schema);
});

test("the pages are the registry's: _index, installation-configuration and one per resource", () => {
  expect(existsSync(join(REPO_ROOT, "docs", "_index.md"))).toBe(true);
  expect(existsSync(join(REPO_ROOT, "docs", "installation-configuration.md"))).toBe(true);
  expect([...files.keys()]).toEqual(
    expect.arrayContaining(Object.keys(schema.resources).map(resourcePagePath)),
  );
  expect(stalePages(files, REPO_ROOT)).toEqual([]);
});

test("every committed page and table is what `npm run docs` writes from the schema", () => {
  const differing = [...files].filter(
    ([path, text]) =>
      !existsSync(join(REPO_ROOT, path)) || readFileSync(join(REPO_ROOT, path), "utf8") !== text,
  );
  expect(differing.map(([path]) => `${path}: run npm run docs`)).toEqual([]);
});

test("the README and the registry's pages hold the generated tables", () => {
  const marked = (page: string, block: string) =>
    readFileSync(join(REPO_ROOT, page), "utf8").includes(`<!-- generated:${block} `);
  expect(marked("README.md", "resources")).toBe(true);
  expect(marked("docs/_index.md", "resources")).toBe(true);
  expect(marked("docs/installation-configuration.md", "settings")).toBe(true);
});

test.each(Object.entries(schema.resources))(
  "every input and output of %s is on its committed page",
  (token, resource) => {
    const page = readFileSync(join(REPO_ROOT, resourcePagePath(token)), "utf8");
    const missing = Object.keys({ ...resource.inputProperties, ...resource.properties }).filter(
      (name) => !page.includes(`| \`${name}\``),
    );
    expect(missing).toEqual([]);
  },
);

test("every setting is in the configuration table", () => {
  const page = readFileSync(join(REPO_ROOT, "docs", "installation-configuration.md"), "utf8");
  const missing = Object.keys(schema.config.variables).filter(
    (name) => !page.includes(`| \`${name}\``) || !page.includes(`\`voiceplatform:${name}\``),
  );
  expect(missing).toEqual([]);
});

test("a new input changes the page, so a page not written again is caught", async () => {
  const [token, resource] = Object.entries(schema.resources)[0]!;
  const withNewInput: PackageSchema = {
    ...schema,
    resources: {
      ...schema.resources,
      [token]: {
        ...resource,
        inputProperties: {
          ...resource.inputProperties,
          greeting: { type: "string", description: "A new input." },
        },
      },
    },
  };
  const written = await referenceDocs(REPO_ROOT, withNewInput);
  const page = resourcePagePath(token);
  expect(written.get(page)).toContain("| `greeting`");
  expect(written.get(page)).not.toBe(files.get(page));
});

test("a generated block with an unknown name is refused, naming the page", () => {
  const text = "<!-- generated:nothing -->\n<!-- /generated:nothing -->\n";
  expect(() => withBlocks(text, generatedBlocks(schema, "README.md"), "README.md")).toThrow(
    /README\.md: no generated block is called "nothing"/,
  );
});

test("each page's Go example imports the module a release publishes, as the README's go get names it", () => {
  const module = goModulePath(PUBLIC_ADDRESS, packageVersion());
  for (const token of Object.keys(schema.resources)) {
    const imports = [
      ...files.get(resourcePagePath(token))!.matchAll(/^\t"([^"]+\/voiceplatform)"$/gm),
    ];
    expect([token, imports.map((match) => match[1])]).toEqual([token, [`${module}/voiceplatform`]]);
  }
});
