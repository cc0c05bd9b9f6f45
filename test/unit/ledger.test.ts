/**
 * The ledger of objects the stacks made (issue 44), without a server or the CLI: what an event
 * becomes on disk (no secret in any form the echo fault writes), many writers at once on one
 * folder, where the ledger is found, and the leftovers computed from entries and stacks.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import { LEDGER_PREFIX, type LedgerEntry } from "../../provider/ledger/ledger-entry";
import { ledgerLocation } from "../../provider/ledger/ledger-location";
import { folderStore } from "../../provider/ledger/ledger-stores";
import { entryOf } from "../../provider/ledger/provider-ledger";
import {
  importFileOf,
  leftoversTable,
  plannedLeftovers,
} from "../../provider/cli/commands/leftovers";
import { leftoversOf, type StackNow } from "../../provider/cli/state/leftovers";
import { rememberSecret } from "../../provider/platform/redaction";
import { resetProcessState } from "../../provider/settings/process-state";
import { echoForms, secretText } from "../support/secret-arbitraries";
import { leaksOf } from "../support/secret-leaks";
import { echoAnswer } from "../../provider/emulator/echo-fault";

const urn = (stack: string, name: string, kind = "SipCarrier") =>
  `urn:pulumi:${stack}::voice-stack::voiceplatform:index:${kind}::${name}`;

let clock = Date.parse("2026-12-01T10:00:00Z");
function entry(fields: Partial<LedgerEntry> & Pick<LedgerEntry, "event">): LedgerEntry {
  clock += 1000;
  return {
    v: 1,
    entry: `e${clock}`,
    at: new Date(clock).toISOString(),
    kind: "SipCarrier",
    project: "voice-stack",
    stack: "dev",
    ...fields,
  };
}

function stack(name: string, ids: string[], pendingUrns: string[] = []): StackNow {
  return {
    project: "voice-stack",
    stack: name,
    objects: new Set(ids.map((id) => `SipCarrier/${id}`)),
    pendingUrns: new Set(pendingUrns),
  };
}

describe("leftovers, from the ledger's entries and the stacks' current state", () => {
  const created = (id: string, name: string, at = "dev", operation = `op-${id}`) =>
    entry({ event: "created", id, operation, urn: urn(at, name), stack: at, name });

  test("an object a stack holds is never listed; one no stack holds is, with how it left", () => {
    const entries = [
      created("c-kept", "kept"),
      created("c-old", "trunk"),
      created("c-new", "trunk"),
      entry({ event: "left", id: "c-old", how: "replaced", urn: urn("dev", "trunk") }),
      created("c-removed", "gone"),
      entry({ event: "left", id: "c-removed", how: "removed", urn: urn("dev", "gone") }),
      created("c-dbr", "first"),
      entry({ event: "left", id: "c-dbr", how: "deleteBeforeReplace", urn: urn("dev", "first") }),
      created("c-destroyed", "all"),
      entry({ event: "left", id: "c-destroyed", how: "destroyed", urn: urn("dev", "all") }),
      created("c-state-deleted", "forgotten"),
      created("c-rm", "pr", "pr-7"),
      created("c-pending", "cut"),
    ];
    const report = leftoversOf(entries, [stack("dev", ["c-kept", "c-new"], [urn("dev", "cut")])]);
    expect(Object.fromEntries(report.leftovers.map((l) => [l.id, l.how]))).toEqual({
      "c-old": "replaced",
      "c-removed": "removed from the program",
      "c-dbr": "replaced (deleteBeforeReplace)",
      "c-destroyed": "destroyed",
      "c-state-deleted": "left the stack without a delete (pulumi state delete, or retainOnDelete)",
      "c-rm": "stack removed",
      "c-pending": "interrupted run",
    });
    expect(report.leftovers.find((l) => l.id === "c-old")).toMatchObject({
      name: "trunk",
      project: "voice-stack",
      stack: "dev",
      urn: urn("dev", "trunk"),
    });
    expect(report.cutCreates).toEqual([]);
  });

  test("an object adopted again (import) is held; one settled leaves the list until it is made again", () => {
    const entries = [
      created("c1", "a"),
      entry({ event: "left", id: "c1", how: "removed" }),
      entry({ event: "settled", kind: "SipCarrier", id: "c1", reason: "deleted in the console" }),
      created("c2", "b"),
      entry({ event: "left", id: "c2", how: "destroyed" }),
      entry({ event: "adopted", id: "c2", urn: urn("dev", "b") }),
    ];
    const { leftovers } = leftoversOf(entries, [stack("dev", ["c2"])]);
    expect(leftovers.map((l) => [l.id, l.settled?.reason])).toEqual([
      ["c1", "deleted in the console"],
    ]);
    // The adoption of c2 is held; once the stack lets go of it again, it is listed.
    expect(leftoversOf(entries, [stack("dev", [])]).leftovers.map((l) => l.id)).toEqual([
      "c1",
      "c2",
    ]);
  });

  test("an intent without its answer is a create cut short, until recover forgets it or a person settles it", () => {
    const intent = entry({ event: "intent", operation: "op-cut", urn: urn("dev", "x"), name: "x" });
    const answered = entry({ event: "intent", operation: "op-ok", urn: urn("dev", "y") });
    const entries = [intent, answered, created("c-ok", "y", "dev", "op-ok")];
    expect(leftoversOf(entries, [stack("dev", ["c-ok"])]).cutCreates).toEqual([
      expect.objectContaining({ operation: "op-cut", kind: "SipCarrier", name: "x" }),
    ]);
    const forgotten = [...entries, entry({ event: "left", operation: "op-cut", how: "recover" })];
    expect(leftoversOf(forgotten, [stack("dev", ["c-ok"])]).cutCreates).toEqual([]);
    const settled = [
      ...entries,
      entry({ event: "settled", kind: "operation", operation: "op-cut", reason: "none made" }),
    ];
    expect(leftoversOf(settled, [stack("dev", ["c-ok"])]).cutCreates[0]?.settled?.reason).toBe(
      "none made",
    );
  });

  test("the import file adopts each listed object under its declared name, made unique", () => {
    const report = leftoversOf(
      [created("c1", "trunk"), created("c2", "trunk"), created("c3", "other")],
      [stack("dev", [])],
    );
    expect(importFileOf(report.leftovers)).toEqual({
      resources: [
        { type: "voiceplatform:index:SipCarrier", name: "trunk", id: "c1" },
        { type: "voiceplatform:index:SipCarrier", name: "trunk-2", id: "c2" },
        { type: "voiceplatform:index:SipCarrier", name: "other", id: "c3" },
      ],
    });
  });
});

describe("leftovers plan, from a `pulumi preview --json`", () => {
  const step = (
    op: string,
    name: string,
    type = "voiceplatform:index:SipCarrier",
    id = `id-${name}`,
  ) => ({
    op,
    urn: `urn:pulumi:dev::voice-stack::${type}::${name}`,
    oldState: { type, id },
  });

  test("counts what a replacement, a removal and a destroy leave, once per object, of this package only", () => {
    const preview = {
      steps: [
        step("same", "kept"),
        step("create-replacement", "trunk"),
        step("replace", "trunk"),
        step("delete-replaced", "trunk"),
        step("delete", "old", "pulumi-nodejs:dynamic/voiceplatform:Voice"),
        step("delete", "bucket", "aws:s3/bucket:Bucket"),
        { op: "create", urn: "urn:pulumi:dev::voice-stack::voiceplatform:index:SipCarrier::new" },
      ],
    };
    expect(plannedLeftovers(preview)).toEqual([
      {
        kind: "SipCarrier",
        id: "id-trunk",
        name: "trunk",
        urn: step("replace", "trunk").urn,
        how: "replaced",
      },
      {
        kind: "Voice",
        id: "id-old",
        name: "old",
        urn: step("delete", "old", "pulumi-nodejs:dynamic/voiceplatform:Voice").urn,
        how: "removed from the program, or destroyed",
      },
    ]);
  });

  test("refuses what is not a preview's JSON, saying what to give it", () => {
    expect(() => plannedLeftovers({ changeSummary: {} })).toThrow(/pulumi preview --json/);
  });
});

describe("the ledger folder", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ledger-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("4 processes writing 50 entries each at once: every entry read back exactly once", async () => {
    const script = `
      const { folderStore } = require(${JSON.stringify(join(__dirname, "..", "..", "provider", "ledger", "ledger-stores.ts"))});
      const store = folderStore(process.argv[1]);
      (async () => {
        for (let i = 0; i < 50; i++)
          await store.write({ v: 1, entry: process.argv[2] + "-" + i, at: new Date().toISOString(), event: "created", kind: "SipCarrier", id: process.argv[2] + "-" + i });
      })();`;
    const run = promisify(execFile);
    const tsx = join(__dirname, "..", "..", "node_modules", ".bin", "tsx");
    await Promise.all(
      ["w1", "w2", "w3", "w4"].map((writer) => run(tsx, ["-e", script, dir, writer])),
    );
    const entries = await folderStore(dir).readAll();
    const ids = entries.map((e) => e.id);
    expect(ids.length).toBe(200);
    expect(new Set(ids).size).toBe(200);
    expect(readdirSync(join(dir, LEDGER_PREFIX)).filter((n) => n.includes("partial"))).toEqual([]);
    // Readable without the package: each file is one JSON line.
    const first = readdirSync(join(dir, LEDGER_PREFIX))[0]!;
    expect(readFileSync(join(dir, LEDGER_PREFIX, first), "utf8")).toMatch(/^\{.*\}\n$/);
  });

  test("is the file backend's folder, or where VOICEPLATFORM_LEDGER says; elsewhere it says what to set", () => {
    const fromBackend = ledgerLocation(dir, { PULUMI_BACKEND_URL: `file://${dir}` });
    expect("store" in fromBackend && fromBackend.store.where).toBe(
      `the folder ${join(dir, LEDGER_PREFIX)}`,
    );
    const set = ledgerLocation(dir, {
      PULUMI_BACKEND_URL: "https://api.pulumi.com",
      VOICEPLATFORM_LEDGER: join(dir, "shared"),
    });
    expect("store" in set && set.store.where).toContain(join(dir, "shared"));
    const cloud = ledgerLocation(dir, { PULUMI_BACKEND_URL: "https://api.pulumi.com" });
    expect(cloud).toEqual({
      missing: expect.stringContaining("https://…"),
      fix: expect.stringContaining("VOICEPLATFORM_LEDGER"),
    });
    const wrong = ledgerLocation(dir, { VOICEPLATFORM_LEDGER: "relative/folder" });
    expect("missing" in wrong && wrong.missing).toContain('"relative/folder"');
  });
});

describe("what an event writes", () => {
  afterEach(() => resetProcessState());

  test("names, ids, the stack and the host, and when", () => {
    const written = entryOf(
      {
        event: "created",
        operation: "op-1",
        id: "c-9",
        object: {
          kind: "SipCarrier",
          urn: urn("prod", "trunk"),
          name: "Main",
          subOrganization: "sub-1",
        },
      },
      new Date("2026-12-01T00:00:00Z"),
    );
    expect(written).toMatchObject({
      v: 1,
      at: "2026-12-01T00:00:00.000Z",
      event: "created",
      kind: "SipCarrier",
      id: "c-9",
      operation: "op-1",
      project: "voice-stack",
      stack: "prod",
      name: "Main",
      subOrganization: "sub-1",
    });
  });

  test("property: a secret the provider holds never shows in the ledger or the command's output, in any echo form the platform could write it in (300 cases)", () => {
    let cases = 0;
    fc.assert(
      fc.property(secretText(8, 24), echoForms, (secret, forms) => {
        cases += 1;
        rememberSecret(secret);
        const echoed = echoAnswer(forms, "text", "{}", secret).text;
        const object = {
          kind: "SipCarrier",
          urn: urn("dev", "trunk"),
          name: echoed,
          subOrganization: echoed,
        };
        const written = [
          entryOf({ event: "intent", operation: "op-cut", object }),
          entryOf({ event: "created", operation: "op", id: "c-1", object }),
          entryOf({ event: "left", id: "c-1", how: "replaced", object }),
        ];
        // What the ledger holds, and what the command prints of it (table and --json).
        const report = leftoversOf(written, []);
        const shown = [
          ...written.map((entry) => JSON.stringify(entry)),
          leftoversTable(report, "the folder /ledger"),
          JSON.stringify(report),
        ].join("\n");
        expect(leaksOf(shown, { secret })).toEqual([]);
      }),
      { numRuns: 300 },
    );
    console.log(`ledger entries and leftovers output from echoed secrets: ${cases} cases, 0 leaks`);
  });
});
