/**
 * What preflight prints: for each interrupted operation on this package's resources, what to look
 * for on the platform and the command that settles it. Built from an export without
 * --show-secrets, so a secret can only appear as ciphertext, which is shown as "[secret]".
 */
import {
  declaredName,
  isSecretEnvelope,
  type PendingOfPackage,
  type PendingOperations,
} from "./exported-state";
import { descriptorOf } from "../../resources";
import type { LedgerAnswer } from "./ledger-answers";

export const COMMAND = "npx pulumi-voice-platform";

function shown(value: unknown): string {
  if (isSecretEnvelope(value)) return "[secret]";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(shown).join(", ");
  if (value !== null && typeof value === "object") {
    if (typeof (value as { path?: unknown }).path === "string")
      return (value as { path: string }).path;
    return `{ ${Object.entries(value)
      .map(([key, inner]) => `${key}: ${shown(inner)}`)
      .join(", ")} }`;
  }
  return String(value);
}

/**
 * The value at a declared input's path (`advancedWebhook.url`), or the secret that holds it: an
 * input kept secret whole is shown once, by its own name, as "[secret]".
 */
function atPath(inputs: Record<string, unknown>, path: string): [string, unknown] | undefined {
  let value: unknown = inputs;
  const walked: string[] = [];
  for (const segment of path.split(".")) {
    if (isSecretEnvelope(value)) return [walked.join("."), value];
    if (value === null || typeof value !== "object") return undefined;
    walked.push(segment);
    value = (value as Record<string, unknown>)[segment];
  }
  return value === undefined ? undefined : [path, value];
}

/** The declared fields that tell this object apart on the platform, as label and value. */
export function identifyingFields(op: PendingOfPackage): [string, string][] {
  const inputs = op.resource.inputs ?? {};
  const { identifyingInputs, showInput = {} } = descriptorOf(op.kind).recovery;
  const fields = new Map<string, string>();
  for (const path of [...identifyingInputs, "subOrganizationId"]) {
    const found = atPath(inputs, path);
    if (found === undefined || fields.has(found[0])) continue;
    const [label, value] = found;
    const format = isSecretEnvelope(value) ? undefined : showInput[label];
    fields.set(label, format === undefined ? shown(value) : format(value, shown));
  }
  return [...fields];
}

const operationNames: Record<string, string> = {
  creating: "create",
  updating: "update",
  deleting: "delete",
  reading: "read",
  importing: "import",
};

/** The id a create would record without the platform's answer (undefined: the platform's id is needed). */
export type KnownIds = ReadonlyMap<string, string>;

function otherOperationNote(op: PendingOfPackage): string {
  if (op.operation === "updating") {
    return (
      descriptorOf(op.kind).recovery.interruptedUpdate ??
      "An update of this resource only records new inputs and calls nothing on the platform; the next `pulumi up` records them again."
    );
  }
  if (op.operation === "deleting") {
    return "A delete calls nothing on the platform (the API cannot remove this object, which stays there); the stack still holds it, so the next `pulumi up` or `destroy` removes it from the stack again.";
  }
  return `An interrupted ${op.operation}: the stack's recorded resources are unchanged by it.`;
}

export interface ReportOptions {
  readonly stackLabel: string;
  /** `--stack …` / `--cwd …` as the user should repeat them. */
  readonly flags: string;
  readonly knownIds: KnownIds;
  /** What the ledger holds of each interrupted create (ledger-answers.ts), where it was read. */
  readonly ledger?: ReadonlyMap<string, LedgerAnswer>;
  /** The locks a stopped run left (their holders no longer run), described for the reader. */
  readonly staleLocks?: readonly string[];
}

export function preflightReport(pending: PendingOperations, options: ReportOptions): string {
  const { ours, others } = pending;
  if (ours.length === 0) return nothingPendingReport(options.stackLabel, others);
  const creates = ours.filter((op) => op.operation === "creating");
  const lines = [
    `${options.stackLabel}: ${ours.length} interrupted operation(s) on pulumi-voice-platform resources, ${creates.length} of them create(s).`,
    "A `pulumi up` stopped (killed, cancelled or out of memory) before it recorded them. The platform may hold",
    "objects that the stack does not know about, and a plain `pulumi up` would create each of them a second time.",
    "",
    ...ours.flatMap((op, index) => [
      ...operationLines(op, index, options.knownIds, options.ledger?.get(op.urn)),
      "",
    ]),
    ...settleLines(ours, options),
  ];
  if (others.length > 0) {
    lines.push(
      "",
      `Also pending, on other packages' resources (importing the state drops these too, as the next \`pulumi up\` would): ${listed(others)}`,
    );
  }
  return lines.join("\n");
}

function listed(ops: PendingOperations["others"]): string {
  return ops.map((o) => `${o.operation} ${o.urn}`).join("; ");
}

function nothingPendingReport(stackLabel: string, others: PendingOperations["others"]): string {
  const lines = [`${stackLabel}: no pending operation on pulumi-voice-platform resources.`];
  if (others.length > 0) {
    lines.push(
      `(${others.length} pending operation(s) on other packages' resources, not checked here: ${listed(others)})`,
    );
  }
  return lines.join("\n");
}

/** One interrupted operation: what it was, and for a create what to look for and how to settle it. */
function operationLines(
  op: PendingOfPackage,
  index: number,
  knownIds: KnownIds,
  ledger: LedgerAnswer | undefined,
): string[] {
  const frontEnd = op.frontEnd === "dynamic" ? "dynamic resource" : "provider plugin";
  const lines = [
    `${index + 1}. ${operationNames[op.operation] ?? op.operation} of ${op.kind} "${declaredName(op.urn)}" (${frontEnd})`,
    `   ${op.urn}`,
  ];
  if (op.operation !== "creating") {
    lines.push(`   ${otherOperationNote(op)} Clear it with --forget ${shellQuote(op.urn)}.`);
    return lines;
  }
  const { recovery } = descriptorOf(op.kind);
  if (ledger !== undefined && "id" in ledger) {
    lines.push(
      `   The ledger holds the platform's answer (${ledger.at}): it is ${ledger.id}, so nothing needs looking for. It was made with:`,
    );
    for (const [label, value] of identifyingFields(op)) lines.push(`     ${label}: ${value}`);
    lines.push(
      `   Record it with ${shellQuote(`${op.urn}=${ledger.id}`)}; recover takes it from the ledger when not named.`,
    );
    if (recovery.afterRecording !== undefined) lines.push(`   ${recovery.afterRecording}`);
    return lines;
  }
  if (ledger !== undefined) {
    lines.push(
      `   The ledger shows its request was sent at ${ledger.cutAt} and no answer arrived: it may exist on the platform without an id.`,
    );
  }
  lines.push(`   Look for ${recovery.lookFor}:`);
  for (const [label, value] of identifyingFields(op)) lines.push(`     ${label}: ${value}`);
  const known = knownIds.get(op.urn);
  if (known !== undefined)
    lines.push(
      `   Its id would be ${known} (${recovery.knownIdSays ?? "the provider derives it from the inputs"}).`,
    );
  lines.push(
    `   Found: record it with ${shellQuote(`${op.urn}=${known ?? `<${recovery.idLabel}>`}`)}`,
    `   Not there: --forget ${shellQuote(op.urn)} (the next \`pulumi up\` creates it)`,
  );
  if (recovery.afterRecording !== undefined) lines.push(`   ${recovery.afterRecording}`);
  return lines;
}

/** The one recover command that settles every operation, and what it does about the lock. */
function settleLines(ours: readonly PendingOfPackage[], options: ReportOptions): string[] {
  const parts = ours.map((op) =>
    op.operation === "creating"
      ? shellQuote(
          `${op.urn}=${options.knownIds.get(op.urn) ?? `<${descriptorOf(op.kind).recovery.idLabel}>`}`,
        )
      : `--forget ${shellQuote(op.urn)}`,
  );
  const stale = options.staleLocks ?? [];
  const flags = [options.flags, stale.length > 0 ? "--cancel-stale-lock" : ""]
    .filter((flag) => flag !== "")
    .join(" ");
  const lines = [
    "Settle them all with one command (replace each <...> by the id the platform shows, and write",
    "--forget URN instead for an object that is not on the platform):",
    "",
    `  ${[`${COMMAND} recover${flags === "" ? "" : ` ${flags}`}`, ...parts].join(" \\\n    ")}`,
    "",
    "recover records each object with the state a finished create writes, so the next `pulumi up` changes",
    "nothing.",
  ];
  if (stale.length > 0) {
    lines.push(
      "The stopped run left its lock on the stack; --cancel-stale-lock lets recover release it (pulumi cancel):",
      ...stale.map((lock) => `  - ${lock}`),
    );
  } else {
    lines.push(
      "recover refuses a locked stack unless given --cancel-stale-lock, and never releases the lock of a",
      "process still running on this machine.",
    );
  }
  return lines;
}

/**
 * A stack locked by an update that may still run: its pending operations are that update's work
 * in flight, not a stopped run's, so no recover command is offered.
 */
export function lockedByUpdateReport(
  stackLabel: string,
  locks: readonly string[],
  pending: PendingOperations,
  anyUnverifiable: boolean,
): string {
  const lines = [
    `${stackLabel} is locked by an update in progress:`,
    ...locks.map((lock) => `  - ${lock}`),
  ];
  if (pending.ours.length > 0) {
    lines.push(
      `Its checkpoint lists ${pending.ours.length} operation(s) on pulumi-voice-platform resources: the running update's work in flight, not a stopped run's.`,
    );
  }
  lines.push(
    "Wait for it to finish, then run preflight again; do not run recover while it runs (importing state",
    "under a live update loses what that update records next, and its objects would be created again).",
  );
  if (anyUnverifiable) {
    lines.push(
      "Only if that update is known to be gone (its job or machine was killed) and preflight keeps saying",
      "this, `recover --cancel-stale-lock` releases the lock. recover never releases a lock held by a process",
      "running on this machine.",
    );
  }
  return lines.join("\n");
}

/** How to repeat `--stack` and `--cwd` in a printed command. */
export function targetFlags(target: { readonly stack?: string; readonly cwd?: string }): string {
  return [
    ...(target.stack === undefined ? [] : [`--stack ${shellQuote(target.stack)}`]),
    ...(target.cwd === undefined ? [] : [`--cwd ${shellQuote(target.cwd)}`]),
  ].join(" ");
}

/** URNs hold `$` and `:`: single quotes keep a pasted command intact in sh, bash and zsh. */
export function shellQuote(text: string): string {
  if (/^[\w@%+=,./-]+$/.test(text)) return text;
  const closeQuoteEscapeReopen = "'\\''";
  return `'${text.replaceAll("'", closeQuoteEscapeReopen)}'`;
}
