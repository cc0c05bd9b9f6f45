/**
 * `rekey` on a stack held in memory: every webhook whose id an earlier version derived from its
 * inputs gets a random one (and so do the stack's outputs that repeat it); nothing else changes,
 * the replaced state is backed up first, and a locked stack or one with interrupted operations is
 * refused. The real CLI and a golden stack run it in test/e2e/upgrade.test.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseCommandLine } from "../../../provider/cli/commands/command-line";
import type { ExportedStack, StateResource } from "../../../provider/cli/state/exported-state";
import { RecoveryRefused } from "../../../provider/cli/errors";
import { rekey } from "../../../provider/cli/commands/rekey";
import type { LocalMachine, StackAccess } from "../../../provider/cli/backends/stack-lock";
import { WEBHOOK_ID } from "../../../provider/resources/campaign-webhook";
import {
  carrierInputs,
  cipher,
  deployment,
  pendingCreate,
  PROJECT,
  STACK,
  typeOf,
  urnOf,
  webhookInputs,
} from "../../support/state-builders";

const NOW = new Date("2026-11-24T21:30:00Z");
const machine: LocalMachine = { hostname: "runner-1", isRunning: () => false };
const DERIVED = "65a1f0c2e4b0a1b2c3d4e5f6/6cde438fc3f365eb";
const CURRENT = "65a1f0c2e4b0a1b2c3d4e5f6/3b9c0f52-8d1e-4a7b-9f0c-2e5d6a7b8c9d";

let backend: string;
let projectDir: string;

beforeEach(() => {
  backend = mkdtempSync(join(tmpdir(), "rekey-"));
  projectDir = join(backend, "project");
  mkdirSync(projectDir);
  writeFileSync(join(projectDir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime: nodejs\n`);
});

afterEach(() => rmSync(backend, { recursive: true, force: true }));

/** The Pulumi CLI's part on a file backend, in memory: what was imported is exported next. */
function fakeStack(initial: ExportedStack): StackAccess & { imported: ExportedStack[] } {
  let current = initial;
  const imported: ExportedStack[] = [];
  return {
    imported,
    exportStack: async () => structuredClone(current),
    importStack: async (exported) => {
      imported.push(exported);
      current = structuredClone(exported);
    },
    cancelUpdate: async () => undefined,
    backendUrl: async () => pathToFileURL(backend).href,
    updateInProgress: async () => false,
  };
}

function webhook(name: string, id: string, frontEnd: "dynamic" | "plugin" = "dynamic") {
  const inputs = webhookInputs({ isAdvanced: true, advancedWebhook: cipher(`hook-${name}`) });
  return {
    urn: urnOf(typeOf("CampaignWebhook", frontEnd), name),
    custom: true,
    type: typeOf("CampaignWebhook", frontEnd),
    id,
    inputs,
    outputs: { ...inputs, status: "success", data: true, stateVersion: 1 },
  } satisfies StateResource;
}

function stackOf(resources: StateResource[], stackOutputs: Record<string, unknown>): ExportedStack {
  const state = deployment([], resources);
  state.resources![0]!.outputs = stackOutputs;
  return { version: 3, deployment: state };
}

const target = () => ({ stack: STACK, cwd: projectDir });

it("gives each derived webhook id a random one, in the stack's outputs too, and changes nothing else", async () => {
  const carrier: StateResource = {
    urn: urnOf("SipCarrier", "trunk"),
    custom: true,
    type: typeOf("SipCarrier"),
    id: "carrier-1",
    inputs: carrierInputs("trunk"),
    outputs: { ...carrierInputs("trunk"), carrierId: "carrier-1" },
  };
  const stored = stackOf(
    [
      webhook("crm", DERIVED),
      webhook("plugin-hook", `${DERIVED.slice(0, 25)}0123456789abcdef`, "plugin"),
      webhook("new", CURRENT),
      carrier,
    ],
    { crmWebhookId: DERIVED, carrierId: "carrier-1" },
  );
  const access = fakeStack(stored);
  const result = await rekey(target(), NOW, access, machine);

  expect(result.exitCode).toBe(0);
  const [written] = access.imported;
  const resources = written!.deployment.resources!;
  const idOf = (name: string) => resources.find((r) => r.urn.endsWith(`::${name}`))!.id!;
  for (const name of ["crm", "plugin-hook"]) {
    expect(idOf(name)).toMatch(WEBHOOK_ID);
    expect(idOf(name).startsWith("65a1f0c2e4b0a1b2c3d4e5f6/")).toBe(true);
  }
  expect(idOf("new")).toBe(CURRENT);
  expect(idOf("trunk")).toBe("carrier-1");
  expect(resources[0]!.outputs).toEqual({ crmWebhookId: idOf("crm"), carrierId: "carrier-1" });
  // Apart from the two ids and the output that repeats one, the state is as it was.
  const again = structuredClone(written!);
  again.deployment.resources![0]!.outputs = { crmWebhookId: DERIVED, carrierId: "carrier-1" };
  again.deployment.resources![1]!.id = DERIVED;
  again.deployment.resources![2]!.id = stored.deployment.resources![2]!.id;
  expect(again).toEqual(stored);

  expect(result.text).toMatch(`Rekeyed CampaignWebhook "crm"`);
  expect(result.text).toMatch(`id is now ${idOf("crm")}`);
  expect(result.text).toMatch("Nothing was sent to the platform");
  expect(result.text).toMatch("nothing is replaced");
  // The old ids give secret inputs away: they are not printed.
  expect(result.text).not.toContain("6cde438fc3f365eb");
  const backups = readdirSync(join(projectDir, ".pulumi-voice-platform", "backups"));
  expect(backups).toHaveLength(1);
  expect(
    JSON.parse(
      readFileSync(join(projectDir, ".pulumi-voice-platform", "backups", backups[0]!), "utf8"),
    ),
  ).toEqual(stored);
});

it("says so and imports nothing when every id is current", async () => {
  const access = fakeStack(stackOf([webhook("new", CURRENT)], {}));
  expect(await rekey(target(), NOW, access, machine)).toEqual({
    exitCode: 0,
    text: "Every resource id of the stack is current: nothing to rekey.",
  });
  expect(access.imported).toEqual([]);
});

it("refuses a stack with interrupted operations, which an import would drop", async () => {
  const stored: ExportedStack = {
    version: 3,
    deployment: deployment(
      [pendingCreate("SipCarrier", "trunk", carrierInputs("trunk"))],
      [webhook("crm", DERIVED)],
    ),
  };
  const access = fakeStack(stored);
  const refused = await rekey(target(), NOW, access, machine).catch((error: Error) => error);
  expect(refused).toBeInstanceOf(RecoveryRefused);
  expect((refused as Error).message).toMatch(/interrupted operations.*preflight/);
  expect(access.imported).toEqual([]);
});

it("refuses a locked stack", async () => {
  const locks = join(backend, ".pulumi", "locks", "organization", PROJECT, STACK);
  mkdirSync(locks, { recursive: true });
  writeFileSync(
    join(locks, "lock-1.json"),
    JSON.stringify({
      pid: 1,
      hostname: "elsewhere",
      timestamp: "2026-11-24T21:26:16Z",
      username: "ci",
    }),
  );
  const access = fakeStack(stackOf([webhook("crm", DERIVED)], {}));
  const refused = await rekey(target(), NOW, access, machine).catch((error: Error) => error);
  expect((refused as Error).message).toMatch(/^the stack is locked:\n {2}- ci@elsewhere \(pid 1\)/);
  expect(access.imported).toEqual([]);
});

it("is a command of its own, taking --stack and --cwd only", () => {
  expect(parseCommandLine(["rekey", "--stack", "dev"])).toEqual({ command: "rekey", stack: "dev" });
  expect(() => parseCommandLine(["rekey", "urn:pulumi:x"])).toThrow(/rekey takes no arguments/);
  expect(() => parseCommandLine(["rekey", "--forget", "urn:pulumi:x"])).toThrow(
    /belong to recover, not rekey/,
  );
});
