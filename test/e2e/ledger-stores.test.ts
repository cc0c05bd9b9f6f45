/**
 * The ledger kept beside the state on each shared backend (issue 44): S3-compatible (moto), Azure
 * Blob (Azurite) and PostgreSQL, each with the URL and credentials `pulumi` uses. Four processes
 * write at once and every entry is read back exactly once; on PostgreSQL the rows sit in Pulumi's
 * own state table, which `pulumi` made, beside its stacks, and stay out of its listing.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ledgerLocation } from "../../provider/ledger/ledger-location";
import {
  backendRequirement,
  startBackend,
  type BackendKind,
  type ThrowawayBackend,
} from "../support/throwaway-backend";
import { runToEnd } from "../support/command-result";
import { requirePulumiCli } from "../support/require-pulumi-cli";

const { cli, describe: describeWithCli } = requirePulumiCli({ purpose: "the ledger's backends" });
const run = promisify(execFile);
const TSX = join(__dirname, "..", "..", "node_modules", ".bin", "tsx");
const WRITERS = 4;
const EACH = 25;

const writer = `
  const { ledgerLocation } = require(${JSON.stringify(join(__dirname, "..", "..", "provider", "ledger", "ledger-location.ts"))});
  const found = ledgerLocation(process.cwd());
  (async () => {
    for (let i = 0; i < ${EACH}; i++) {
      const id = process.argv[1] + "-" + i;
      await found.store.write({ v: 1, entry: id, at: new Date().toISOString(), event: "created", kind: "SipCarrier", id, urn: "urn:pulumi:dev::p::voiceplatform:index:SipCarrier::" + id });
    }
  })().catch((error) => { console.error(error); process.exitCode = 1; });`;

describeWithCli.each(["s3", "azblob", "postgres"] as BackendKind[])(
  "the ledger on %s, beside the state",
  (kind) => {
    jest.setTimeout(180_000);
    let backend: ThrowawayBackend;
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      const required = backendRequirement(kind);
      if (!required.available) throw new Error(required.missing);
      backend = await startBackend(kind);
      const url = await backend.createStore("ledger-stores");
      env = { ...process.env, ...backend.env, PULUMI_BACKEND_URL: url };
      // `pulumi` opens the new backend first, as a team's first `pulumi up` does (on PostgreSQL it
      // creates its state table then).
      const listed = await runToEnd(cli!.pulumi, ["stack", "ls", "--non-interactive"], {
        cwd: __dirname,
        env: {
          ...env,
          PULUMI_HOME: join(__dirname, ".no-such-home"),
          PULUMI_SKIP_UPDATE_CHECK: "true",
        },
      });
      expect(listed.code).toBe(0);
    });
    afterAll(async () => backend?.stop());

    test(`${WRITERS} writers at once: every entry read back exactly once`, async () => {
      await Promise.all(
        Array.from({ length: WRITERS }, (_, w) =>
          run(TSX, ["-e", writer, `w${w}`], { env, cwd: __dirname }),
        ),
      );
      const saved = { ...process.env };
      Object.assign(process.env, backend.env);
      try {
        const location = ledgerLocation(__dirname, env);
        if (!("store" in location)) throw new Error(location.missing);
        const ids = (await location.store.readAll()).map((entry) => entry.id);
        expect(ids).toHaveLength(WRITERS * EACH);
        expect(new Set(ids).size).toBe(WRITERS * EACH);
        console.log(
          `ledger on ${kind} (${location.store.where}): ${WRITERS} writers × ${EACH} entries, ${ids.length} read back, ${ids.length - new Set(ids).size} doubled, 0 lost`,
        );
      } finally {
        process.env = saved;
      }
      // Pulumi's own listing does not mistake the ledger for a stack.
      const listed = await runToEnd(
        cli!.pulumi,
        ["stack", "ls", "--all", "--json", "--non-interactive"],
        {
          cwd: __dirname,
          env: {
            ...env,
            PULUMI_HOME: join(__dirname, ".no-such-home"),
            PULUMI_SKIP_UPDATE_CHECK: "true",
          },
        },
      );
      expect({ code: listed.code, stacks: JSON.parse(listed.stdout || "[]") }).toEqual({
        code: 0,
        stacks: [],
      });
    });
  },
);
