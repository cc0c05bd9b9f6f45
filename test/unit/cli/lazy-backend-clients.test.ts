/**
 * The backend clients (@aws-sdk/client-s3, @azure/storage-blob, @azure/identity, postgres) are
 * loaded by a dynamic import only, never by a static one: through backend-clients.ts's loaders
 * (and @azure/identity in azblob-locks.ts), which the lock readers (preflight, recover) and the
 * ledger's stores (provider/ledger/) call only on that backend. Nothing but provider/cli and provider/ledger reaches provider/cli, so a provider whose
 * ledger is a folder loads none of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const PROVIDER = join(__dirname, "..", "..", "..", "provider");
const CLIENTS = /^(@aws-sdk\/|@azure\/|postgres$)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every module a file names: `from "x"` of static imports, `import("x")` of dynamic ones. */
function imports(text: string): { name: string; dynamic: boolean; typeOnly: boolean }[] {
  const found = [...text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gms)].map((m) => ({
    name: m[2]!,
    dynamic: false,
    typeOnly: m[1] !== undefined,
  }));
  // `typeof import("x")` is a type.
  for (const m of text.matchAll(/(typeof\s+)?import\("([^"]+)"\)/g)) {
    found.push({ name: m[2]!, dynamic: m[1] === undefined, typeOnly: m[1] !== undefined });
  }
  return found;
}

test("the backend clients are loaded only by dynamic imports, in provider/cli", () => {
  const dynamicUses: string[] = [];
  for (const file of sources(PROVIDER)) {
    const where = relative(PROVIDER, file);
    for (const used of imports(readFileSync(file, "utf8"))) {
      if (!CLIENTS.test(used.name)) continue;
      expect({ where, used: used.name, static: !used.dynamic && !used.typeOnly }).toEqual({
        where,
        used: used.name,
        static: false,
      });
      if (used.dynamic) {
        expect(where).toMatch(/^(cli|ledger)\//);
        dynamicUses.push(`${where}: ${used.name}`);
      }
    }
  }
  expect(dynamicUses.sort()).toEqual([
    "cli/backends/azblob-locks.ts: @azure/identity",
    "cli/backends/backend-clients.ts: @aws-sdk/client-s3",
    "cli/backends/backend-clients.ts: @azure/storage-blob",
    "cli/backends/backend-clients.ts: postgres",
  ]);
});

test("nothing outside provider/cli and provider/ledger imports it", () => {
  for (const file of sources(PROVIDER)) {
    const where = relative(PROVIDER, file);
    if (where.startsWith("cli/") || where.startsWith("ledger/")) continue;
    for (const used of imports(readFileSync(file, "utf8"))) {
      expect({ where, used: used.name }).not.toEqual({
        where,
        used: expect.stringMatching(/(^|\/)cli(\/|$)/),
      });
    }
  }
});
