/**
 * The ledger a front end hands its served resources: each event made an entry (ledger-entry.ts)
 * with when, where and which stack, every text field redacted, and stored before the call goes on.
 * A ledger that cannot be written never fails the call, so the state still gets the id: it is
 * said once per provider, with what to run.
 */
import { BackendClientMissing } from "../cli/errors";
import type { LedgerEvent, ObjectLedger } from "../core/object-ledger";
import type { ProviderContext } from "../core/provider-context";
import { redactSecrets } from "../platform/redaction";
import { readSettings } from "../settings/config";
import { stateSlot, type ProviderStates } from "../settings/process-state";
import type { SettingsSource } from "../settings/settings-state";
import { newEntry, stackOfResource, type LedgerEntry } from "./ledger-entry";
import { ledgerLocation, type LedgerLocation } from "./ledger-location";

/** A provider's ledger location, found on first use (the project folder is its cwd). */
const location = stateSlot((): { found?: LedgerLocation } => ({}));

function currentLocation(states: ProviderStates): LedgerLocation {
  const held = location(states);
  held.found ??= foundLocation();
  return held.found;
}

function foundLocation(): LedgerLocation {
  try {
    return ledgerLocation(process.cwd());
  } catch (error) {
    // A backend URL the ledger cannot use (an S3 URL with `role`, say): said, never thrown.
    return {
      missing: redactSecrets((error as Error).message),
      fix: 'see docs/operations.md "The ledger"',
    };
  }
}

export const providerLedger: ObjectLedger = Object.freeze({
  async record(context: ProviderContext, event: LedgerEvent): Promise<void> {
    const entry = entryOf(event, new Date(), context.settings);
    const found = currentLocation(context.states);
    const sayNotRecorded = (why: string, fix: string) => notRecorded(context, why, fix);
    if (!("store" in found)) {
      sayNotRecorded(found.missing, found.fix);
      return;
    }
    try {
      await found.store.write(entry);
    } catch (error) {
      if (error instanceof BackendClientMissing) {
        sayNotRecorded(
          `${found.store.where} cannot be written: ${error.message}`,
          `once it is installed, \`npx pulumi-voice-platform leftovers\` lists what is recorded from then on`,
        );
        return;
      }
      sayNotRecorded(
        `writing to ${found.store.where} failed (${redactSecrets(String((error as Error).message ?? error))})`,
        "fix the access and run `npx pulumi-voice-platform leftovers` to see what the ledger holds",
      );
    }
  },
});

function notRecorded(context: ProviderContext, why: string, fix: string): void {
  // Once per provider: the id still reaches the stack's state, which is what matters most.
  context.log.warn(
    `the ledger of objects left on the platform is not kept for this stack: ${why}. Objects this stack leaves on the platform cannot be listed later; ${fix}`,
  );
}

/**
 * The fields a user's value can reach, redacted (a secret someone used as a carrier's name stays
 * out). The id and URN are kept exact, as the state keeps them in plain text: an id blanked
 * because a short secret happened to stand inside it would be an id lost.
 */
const REDACTED_FIELDS = new Set(["name", "organization", "subOrganization", "host"]);

/**
 * The entry an event makes, with the user's values redacted (REDACTED_FIELDS); the host is the
 * one `settings` name, when given.
 */
export function entryOf(
  event: LedgerEvent,
  now: Date = new Date(),
  settings?: SettingsSource,
): LedgerEntry {
  const { object } = event;
  const where = stackOfResource(object.urn);
  const entry = newEntry(
    {
      event: event.event,
      kind: object.kind,
      ...("id" in event ? { id: event.id } : {}),
      ...("operation" in event ? { operation: event.operation } : {}),
      urn: object.urn,
      ...(where ?? {}),
      ...hostOf(settings),
      ...(object.name === undefined ? {} : { name: object.name }),
      ...(object.organization === undefined ? {} : { organization: object.organization }),
      ...(object.subOrganization === undefined ? {} : { subOrganization: object.subOrganization }),
      ...("how" in event ? { how: event.how } : {}),
    },
    now,
  );
  return Object.fromEntries(
    Object.entries(entry).map(([key, value]) => [
      key,
      typeof value === "string" && REDACTED_FIELDS.has(key) ? redactSecrets(value) : value,
    ]),
  ) as LedgerEntry;
}

function hostOf(settings: SettingsSource | undefined): { host?: string } {
  if (settings === undefined) return {};
  try {
    const { baseUrl, campaignsBaseUrl } = readSettings(settings);
    const url = baseUrl ?? campaignsBaseUrl;
    return url === undefined ? {} : { host: new URL(url).host };
  } catch {
    return {};
  }
}
