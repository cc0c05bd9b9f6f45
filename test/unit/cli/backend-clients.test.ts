/**
 * The state backends' clients are optional peer dependencies (issue 47): a project without them
 * loads every entry point, and an S3, Azure Blob or PostgreSQL backend then says in one line what
 * to install. The sources run in a child process where the clients cannot be resolved
 * (test/support/hide-backend-clients.cjs); test/e2e/backend-clients-absent.test.ts runs the
 * packed package in a project that never installed them.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { BACKEND_CLIENTS, installCommand } from "../../../provider/cli/backends/backend-clients";

const run = promisify(execFile);
const REPO = join(__dirname, "..", "..", "..");
const TSX = join(REPO, "node_modules", "tsx", "dist", "cli.mjs");
const HIDE = join(REPO, "test", "support", "hide-backend-clients.cjs");

// Each test starts tsx, which compiles the modules it loads: seconds alone, past jest's default
// when the machine is loaded (over 30 s seen at a load of 17 on 2 cores).
jest.setTimeout(180_000);

/** Runs `script` (TypeScript, from the repository's root) with the clients hidden; its JSON. */
async function withoutClients(script: string, env: NodeJS.ProcessEnv = {}): Promise<unknown> {
  const { stdout } = await run(process.execPath, [TSX, "--require", HIDE, "-e", script], {
    cwd: REPO,
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

test("each client is an optional peer dependency at the range its install line names, and a devDependency of the repository", () => {
  const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  for (const client of Object.values(BACKEND_CLIENTS)) {
    expect({
      name: client.name,
      peer: manifest.peerDependencies[client.name],
      optional: manifest.peerDependenciesMeta[client.name]?.optional,
      dev: manifest.devDependencies[client.name],
      dependency: manifest.dependencies[client.name],
    }).toEqual({
      name: client.name,
      peer: client.range,
      optional: true,
      dev: client.range,
      dependency: undefined,
    });
    expect(installCommand(client)).toBe(`npm install "${client.name}@${client.range}"`);
  }
});

test("without the clients, the entry points and every module of the command and the ledger load", async () => {
  const modules = [
    "provider/index.ts",
    "provider/runtime.ts",
    "provider/emulator/index.ts",
    "provider/testing/index.ts",
    "provider/policy/index.ts",
    ...[...sources(join(REPO, "provider", "cli")), ...sources(join(REPO, "provider", "ledger"))]
      .map((file) => relative(REPO, file))
      .sort(),
  ];
  const loaded = await withoutClients(`
    const loaded = [];
    for (const path of ${JSON.stringify(modules)}) {
      require("./" + path);
      loaded.push(path);
    }
    let hidden;
    try { require("@aws-sdk/client-s3"); hidden = false; } catch (error) { hidden = error.code; }
    console.log(JSON.stringify({ loaded, hidden }));`);
  expect(loaded).toEqual({ loaded: modules, hidden: "MODULE_NOT_FOUND" });
  expect(modules).toContain("provider/cli/main.ts");
  expect(modules).toContain("provider/ledger/backend-stores.ts");
});

test("without the clients, each backend's loader fails with one line: which backend, and the npm install to run", async () => {
  const failures = await withoutClients(`
    const clients = require("./provider/cli/backends/backend-clients");
    const loaders = { s3: clients.loadS3Client, azureBlob: clients.loadAzureBlobClient, postgres: clients.loadPostgresClient };
    Promise.all(Object.entries(loaders).map(([key, load]) => load().then(
      () => [key, "loaded"],
      (error) => [key, { name: error.name, message: error.message, install: error.install }],
    ))).then((all) => console.log(JSON.stringify(Object.fromEntries(all))));`);
  expect(failures).toEqual({
    s3: {
      name: "BackendClientMissing",
      message:
        'An S3-compatible state backend is read and written with the optional package @aws-sdk/client-s3, which is not installed here: run `npm install "@aws-sdk/client-s3@^3.1175.0"` in the project',
      install: 'npm install "@aws-sdk/client-s3@^3.1175.0"',
    },
    azureBlob: {
      name: "BackendClientMissing",
      message:
        'An Azure Blob state backend is read and written with the optional package @azure/storage-blob, which is not installed here: run `npm install "@azure/storage-blob@~12.32.0"` in the project',
      install: 'npm install "@azure/storage-blob@~12.32.0"',
    },
    postgres: {
      name: "BackendClientMissing",
      message:
        'A PostgreSQL state backend is read and written with the optional package postgres, which is not installed here: run `npm install "postgres@^3.4.9"` in the project',
      install: 'npm install "postgres@^3.4.9"',
    },
  });
});

test("the provider's ledger on an S3 backend without the client: the write never fails the call, and says once what to install", async () => {
  const said = await withoutClients(
    `
    const { providerLedger } = require("./provider/ledger/provider-ledger");
    const { providerContext } = require("./provider/core/provider-context");
    const { processProviderStates } = require("./provider/settings/process-state");
    const context = providerContext({ states: processProviderStates() });
    const warnings = [];
    console.warn = (text) => warnings.push(text);
    const object = { kind: "SipCarrier", urn: "urn:pulumi:dev::proj::voiceplatform:index:SipCarrier::a" };
    (async () => {
      await providerLedger.record(context, { event: "intent", operation: "op-1", object });
      await providerLedger.record(context, { event: "created", operation: "op-1", id: "carrier-1", object });
      console.log(JSON.stringify({ resolved: true, warnings }));
    })();`,
    {
      // Nothing listens there: a write that got as far as the network would fail otherwise.
      VOICEPLATFORM_LEDGER: "s3://team-state?region=us-east-1&endpoint=http://127.0.0.1:9",
    },
  );
  expect(said).toEqual({
    resolved: true,
    warnings: [
      'warning: the ledger of objects left on the platform is not kept for this stack: the S3 bucket team-state (prefix .pulumi/voiceplatform-ledger/) cannot be written: An S3-compatible state backend is read and written with the optional package @aws-sdk/client-s3, which is not installed here: run `npm install "@aws-sdk/client-s3@^3.1175.0"` in the project. Objects this stack leaves on the platform cannot be listed later; once it is installed, `npx pulumi-voice-platform leftovers` lists what is recorded from then on',
    ],
  });
});
