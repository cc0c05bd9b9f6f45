/**
 * `leftovers`: what the team's stacks left on the platform, from the ledger the provider writes
 * beside the state (provider/ledger/) and the stacks' current state; `--import-file` writes the
 * file `pulumi import --file` adopts them with (no call: the provider's import reads nothing), and
 * `leftovers settle` marks one handled. docs/operations.md "The ledger".
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { newEntry } from "../../ledger/ledger-entry";
import { ledgerLocation } from "../../ledger/ledger-location";
import type { LedgerStore } from "../../ledger/ledger-stores";
import { resourceKinds, type ResourceKind } from "../../resources";
import { resourceToken } from "../../schema/package-schema";
import { kindOfType } from "../../schema/type-tokens";
import { exportStack, listStacks } from "../backends/pulumi-stack";
import { CommandSettingError, UsageError } from "../errors";
import { declaredName } from "../state/exported-state";
import {
  leftoversOf,
  objectKey,
  stackNow,
  type CutCreate,
  type Leftover,
  type LeftoverReport,
} from "../state/leftovers";
import { projectDirectory } from "../state/project-folder";
import { EXIT, type CommandResult } from "./command-result";

export const LEFTOVERS_USAGE = `  pulumi-voice-platform leftovers [--cwd DIR] [--json] [--all] [--import-file FILE [--select KIND/ID]...]
      Lists every object the ledger saw this team's stacks make or adopt that no stack holds now
      (destroyed, removed, replaced, state delete, retainOnDelete, stack rm, an interrupted run),
      grouped by organization and sub-organization, and every create cut before its answer (it
      may have made an object nobody has the id of). Exits 0 when nothing needs a person, 1 when
      something does. --json prints the same for scripts; --all lists settled ones too;
      --import-file writes a \`pulumi import --file\` file for the listed objects (or those
      --select names) that adopts them into a stack without a call.
  pulumi-voice-platform leftovers plan --from FILE|- [--json]
      Reads a \`pulumi preview --json\` (or \`pulumi destroy --preview-only --json\`) and says how
      many objects that update will leave on the platform, of which kinds, and each one: the
      resources it replaces, removes or destroys. Exits 0 when none, 1 when some (a gate for a
      pull request): \`pulumi preview --json | npx pulumi-voice-platform leftovers plan --from -\`.
  pulumi-voice-platform leftovers settle KIND/ID|OPERATION --reason TEXT [--cwd DIR]
      Marks a leftover (or a cut create, by its operation) handled: deleted in the platform's
      console, or kept on purpose. It stays in the ledger, and out of the list.`;

const options = {
  cwd: { type: "string", short: "C" },
  json: { type: "boolean" },
  all: { type: "boolean" },
  "import-file": { type: "string" },
  select: { type: "string", multiple: true },
  reason: { type: "string" },
  from: { type: "string" },
} as const;

export async function leftovers(argv: readonly string[]): Promise<CommandResult> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new UsageError(`leftovers: ${(error as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (positionals[0] === "plan") return plan(values.from, values.json === true);
  if (values.from !== undefined) throw new UsageError("--from belongs to `leftovers plan`");
  const projectDir = projectDirectory(values.cwd ?? process.cwd());
  const store = storeFor(projectDir);
  if (positionals[0] === "settle") return settle(store, positionals.slice(1), values.reason);
  if (positionals.length > 0) {
    throw new UsageError(
      `leftovers takes no argument but \`settle\`, got ${JSON.stringify(positionals[0])}`,
    );
  }
  if (values.reason !== undefined) throw new UsageError("--reason belongs to `leftovers settle`");
  if (values.select !== undefined && values["import-file"] === undefined) {
    throw new UsageError("--select chooses what --import-file writes: give --import-file FILE");
  }
  const report = await reportOf(store, projectDir);
  const shown = values.all === true ? report : needingAPerson(report);
  if (values["import-file"] !== undefined) {
    const chosen = selected(shown.leftovers, values.select ?? []);
    writeFileSync(values["import-file"], `${JSON.stringify(importFileOf(chosen), null, 2)}\n`);
  }
  const open = needingAPerson(report);
  const exitCode = open.leftovers.length + open.cutCreates.length === 0 ? EXIT.clean : EXIT.pending;
  const text =
    values.json === true
      ? JSON.stringify({ ledger: store.where, ...shown }, null, 2)
      : leftoversTable(shown, store.where) +
        (values["import-file"] === undefined
          ? ""
          : `\nwrote ${values["import-file"]}: adopt with \`pulumi import --file ${values["import-file"]}\` in the stack that should hold them`);
  return { exitCode, text };
}

function storeFor(projectDir: string): LedgerStore {
  const location = ledgerLocation(projectDir);
  if ("store" in location) return location.store;
  throw new CommandSettingError(`no ledger to read: ${location.missing}; ${location.fix}`);
}

/** The ledger, and the current state of every stack it names that still exists. */
async function reportOf(store: LedgerStore, projectDir: string): Promise<LeftoverReport> {
  const entries = await store.readAll();
  const named = new Set(
    entries.filter((e) => e.project !== undefined && e.stack !== undefined).map(stackName),
  );
  const existing = (await listStacks(projectDir)).filter((s) => named.has(s.key));
  const stacks = await Promise.all(
    existing.map(async (s) =>
      stackNow(s.project, s.stack, await exportStack({ stack: s.name, cwd: projectDir })),
    ),
  );
  return leftoversOf(entries, stacks);
}

const stackName = (e: { project?: string; stack?: string }) => `${e.project}/${e.stack}`;

function needingAPerson(report: LeftoverReport): LeftoverReport {
  return {
    leftovers: report.leftovers.filter((l) => l.settled === undefined),
    cutCreates: report.cutCreates.filter((c) => c.settled === undefined),
  };
}

function selected(listed: readonly Leftover[], select: readonly string[]): Leftover[] {
  if (select.length === 0) return [...listed];
  return select.map((wanted) => {
    const found = listed.find((l) => objectKey(l.kind, l.id) === wanted);
    if (found === undefined) {
      throw new UsageError(
        `--select ${JSON.stringify(wanted)} is not a listed leftover: write KIND/ID as the list shows it (e.g. SipCarrier/c-123)`,
      );
    }
    return found;
  });
}

/** `pulumi import --file`: each object under its declared name, made unique where names repeat. */
export function importFileOf(chosen: readonly Leftover[]): {
  resources: { type: string; name: string; id: string }[];
} {
  const used = new Map<string, number>();
  return {
    resources: chosen.map((leftover) => {
      const base = leftover.urn === undefined ? leftover.kind : declaredName(leftover.urn);
      const count = (used.get(base) ?? 0) + 1;
      used.set(base, count);
      return {
        type: resourceToken(leftover.kind),
        name: count === 1 ? base : `${base}-${count}`,
        id: leftover.id,
      };
    }),
  };
}

async function settle(
  store: LedgerStore,
  args: readonly string[],
  reason: string | undefined,
): Promise<CommandResult> {
  const [what, ...extra] = args;
  if (what === undefined || extra.length > 0) {
    throw new UsageError(
      "leftovers settle takes one KIND/ID (or a cut create's operation) and --reason TEXT",
    );
  }
  if (reason === undefined || reason.trim() === "") {
    throw new UsageError(
      'leftovers settle needs --reason TEXT: say what was done ("deleted in the console", "kept on purpose")',
    );
  }
  const slash = what.indexOf("/");
  const kind = what.slice(0, slash);
  const object =
    slash > 0 && resourceKinds.includes(kind as ResourceKind)
      ? { kind, id: what.slice(slash + 1) }
      : undefined;
  const entry = newEntry({
    event: "settled",
    kind: object?.kind ?? "operation",
    ...(object === undefined ? { operation: what } : { id: object.id }),
    how: "settled",
    reason: reason.trim(),
  });
  await store.write(entry);
  return { exitCode: EXIT.clean, text: `settled ${what}: ${entry.reason} (in ${store.where})` };
}

/** The list as people read it, grouped by host, organization and sub-organization. */
export function leftoversTable(report: LeftoverReport, where: string): string {
  const { leftovers: listed, cutCreates } = report;
  if (listed.length + cutCreates.length === 0) {
    return `nothing the stacks made is left on the platform outside a stack (ledger: ${where})`;
  }
  const lines = [`the ledger (${where}) lists ${listed.length} object(s) no stack holds:`];
  const groups = new Map<string, Leftover[]>();
  for (const leftover of listed) {
    const group = groupOf(leftover);
    groups.set(group, [...(groups.get(group) ?? []), leftover]);
  }
  for (const [group, members] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push("", group);
    for (const l of members) {
      lines.push(
        `  ${objectKey(l.kind, l.id)}${l.name === undefined ? "" : ` "${l.name}"`}: ${l.how}` +
          `${l.leftAt === undefined ? "" : ` at ${l.leftAt}`}; from ${l.project ?? "?"}/${l.stack ?? "?"}` +
          ` (${l.urn === undefined ? "no URN" : declaredName(l.urn)}), managed since ${l.since}` +
          (l.settled === undefined ? "" : `; settled: ${l.settled.reason}`),
      );
    }
  }
  if (cutCreates.length > 0) {
    lines.push(
      "",
      `${cutCreates.length} create(s) were cut before the platform's answer: each may have made an object whose id nobody has. Look for it in the platform's console, then \`leftovers settle OPERATION --reason ...\`:`,
      ...cutCreates.map(cutLine),
    );
  }
  lines.push(
    "",
    "adopt one into a stack with --import-file FILE (then `pulumi import --file FILE`), or mark it handled with `leftovers settle KIND/ID --reason ...`",
  );
  return lines.join("\n");
}

function cutLine(c: CutCreate): string {
  return `  ${c.operation}: ${c.kind}${c.name === undefined ? "" : ` "${c.name}"`} of ${c.project ?? "?"}/${c.stack ?? "?"} (${c.urn === undefined ? "no URN" : declaredName(c.urn)}), sent at ${c.at}${c.settled === undefined ? "" : `; settled: ${c.settled.reason}`}`;
}

function groupOf(l: Leftover): string {
  const organization = l.organization ?? "the API key's organization";
  const sub =
    l.subOrganization === undefined
      ? "no sub-organization"
      : `sub-organization ${l.subOrganization}`;
  return `${l.host ?? "unknown host"} · organization ${organization} · ${sub}`;
}

/** The objects an update will leave: each with the step that leaves it. */
export interface PlannedLeftover {
  readonly kind: string;
  readonly id: string;
  readonly name: string;
  readonly urn: string;
  readonly how: "replaced" | "removed from the program, or destroyed";
}

/** The steps of a `pulumi preview --json` that leave one of this package's objects behind. */
export function plannedLeftovers(preview: unknown): PlannedLeftover[] {
  const steps = (preview as { steps?: unknown }).steps;
  if (!Array.isArray(steps)) {
    throw new UsageError(
      "leftovers plan: the input holds no `steps`: give it the output of `pulumi preview --json`",
    );
  }
  const found = new Map<string, PlannedLeftover>();
  for (const step of steps as {
    op?: string;
    urn?: string;
    oldState?: { type?: string; id?: string };
  }[]) {
    const how =
      step.op === "delete"
        ? "removed from the program, or destroyed"
        : step.op === "replace" || step.op === "delete-replaced"
          ? "replaced"
          : undefined;
    const known = kindOfType(step.oldState?.type ?? "");
    if (how === undefined || known === undefined || step.urn === undefined) continue;
    const id = step.oldState?.id ?? "";
    found.set(`${step.urn}\u0000${id}`, {
      kind: known.kind,
      id,
      name: declaredName(step.urn),
      urn: step.urn,
      how,
    });
  }
  return [...found.values()];
}

function plan(from: string | undefined, json: boolean): CommandResult {
  if (from === undefined) {
    throw new UsageError(
      "leftovers plan needs --from FILE (or - for standard input): the output of `pulumi preview --json`",
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(from === "-" ? 0 : from, "utf8"));
  } catch (error) {
    throw new UsageError(
      `leftovers plan: ${from} is not the JSON of \`pulumi preview --json\` (${(error as Error).message})`,
    );
  }
  const leaving = plannedLeftovers(parsed);
  const exitCode = leaving.length === 0 ? EXIT.clean : EXIT.pending;
  if (json) return { exitCode, text: JSON.stringify({ leaving }, null, 2) };
  if (leaving.length === 0)
    return { exitCode, text: "this update leaves no object on the platform" };
  const kinds = new Map<string, number>();
  for (const l of leaving) kinds.set(l.kind, (kinds.get(l.kind) ?? 0) + 1);
  return {
    exitCode,
    text: [
      `this update will leave ${leaving.length} object(s) on the platform, which cannot delete them: ${[...kinds].map(([kind, n]) => `${n} ${kind}`).join(", ")}`,
      ...leaving.map((l) => `  ${objectKey(l.kind, l.id)} "${l.name}": ${l.how}`),
      "the ledger keeps each one; after the update `npx pulumi-voice-platform leftovers` lists them",
    ].join("\n"),
  };
}
