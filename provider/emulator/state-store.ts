import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type {
  EmulatorState,
  OrganizationState,
  StoredCarrier,
  StoredSubscription,
  Voice,
} from "./control-types";
import { redactSecrets } from "./redact-secrets";

interface OrganizationRecords {
  voices: Map<string, Voice>;
  carriers: Map<string, StoredCarrier>;
  subscriptions: Map<string, StoredSubscription[]>;
}

const STATE_FILE_VERSION = 1;

/**
 * Objects per organization, in memory. With a state file, every mutation rewrites the file
 * atomically (temporary file, then rename), so a killed emulator never leaves half a file.
 * The file holds the redacted snapshot: nothing the emulator serves needs a secret back, and a
 * test fixture on disk should not hold one.
 */
export class StateStore {
  private organizations = new Map<string, OrganizationRecords>();

  constructor(
    private readonly organizationIds: readonly string[],
    private readonly stateFile?: string,
  ) {
    this.clearRecords();
    if (stateFile !== undefined && existsSync(stateFile)) this.load(stateFile);
  }

  /** Inserts or replaces. */
  saveVoice(voice: Voice): void {
    this.recordsOf(voice.organizationId).voices.set(voice.id, voice);
    this.persist();
  }

  findVoice(organizationId: string, id: string): Voice | undefined {
    return this.organizations.get(organizationId)?.voices.get(id);
  }

  addCarrier(carrier: StoredCarrier): void {
    this.recordsOf(carrier.organizationId).carriers.set(carrier.id, carrier);
    this.persist();
  }

  addSubscription(subscription: StoredSubscription): void {
    const byCampaign = this.recordsOf(subscription.organizationId).subscriptions;
    const existing = byCampaign.get(subscription.campaignId) ?? [];
    byCampaign.set(subscription.campaignId, [...existing, subscription]);
    this.persist();
  }

  clear(): void {
    this.clearRecords();
    this.persist();
  }

  snapshot(): EmulatorState {
    const organizations: Record<string, OrganizationState> = {};
    for (const [id, records] of this.organizations) {
      organizations[id] = {
        voices: [...records.voices.values()],
        carriers: [...records.carriers.values()],
        subscriptions: Object.fromEntries(records.subscriptions),
      };
    }
    return redactSecrets({ organizations });
  }

  private clearRecords(): void {
    this.organizations = new Map();
    for (const id of this.organizationIds) this.recordsOf(id);
  }

  private recordsOf(organizationId: string): OrganizationRecords {
    let records = this.organizations.get(organizationId);
    if (records === undefined) {
      records = { voices: new Map(), carriers: new Map(), subscriptions: new Map() };
      this.organizations.set(organizationId, records);
    }
    return records;
  }

  private persist(): void {
    if (this.stateFile === undefined) return;
    const temporary = `${this.stateFile}.${process.pid}.tmp`;
    const content = { version: STATE_FILE_VERSION, ...this.snapshot() };
    writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`);
    renameSync(temporary, this.stateFile);
  }

  private load(stateFile: string): void {
    const content = JSON.parse(readFileSync(stateFile, "utf8")) as Partial<EmulatorState> & {
      version?: number;
    };
    if (content.version !== STATE_FILE_VERSION || typeof content.organizations !== "object") {
      throw new Error(
        `${stateFile} is not an emulator state file (version ${STATE_FILE_VERSION}); ` +
          "delete it or point --state elsewhere",
      );
    }
    for (const [organizationId, state] of Object.entries(content.organizations)) {
      const records = this.recordsOf(organizationId);
      for (const voice of state.voices) records.voices.set(voice.id, voice);
      for (const carrier of state.carriers) records.carriers.set(carrier.id, carrier);
      for (const [campaignId, list] of Object.entries(state.subscriptions)) {
        records.subscriptions.set(campaignId, list);
      }
    }
  }
}
