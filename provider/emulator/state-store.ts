import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { EmulatorState, OrganizationState } from "./control-types";
import { redactSecrets } from "./redact-secrets";

/** An object the state holds: each organization's, by id. */
export interface StoredObject {
  id: string;
  organizationId: string;
}

/** What the state needs of a kind: where its objects live, its secrets, how they are shown. */
export interface KindCollection {
  /** Each organization's objects of the kind, in the state: `carriers`. */
  readonly collection: string;
  /**
   * Body fields whose values are secret: a bare name (`register_password`) wherever it stands, a
   * path (`advancedWebhook.headers[].value`) from the body's root. The request log and the state
   * show them as "[redacted]" (redact-secrets.ts).
   */
  readonly secretFields?: readonly string[];
  /** How the state shows the objects, in the order they were stored; a list by default. */
  snapshot?(objects: StoredObject[]): unknown;
  /** The objects a state file holds, as `snapshot` showed them; from a list by default. */
  restore?(shown: unknown): StoredObject[];
}

/** An organization's objects: by collection (`voices`), then by id, in the order stored. */
type OrganizationRecords = Map<string, Map<string, StoredObject>>;

const STATE_FILE_VERSION = 1;

/**
 * Objects per organization, in memory, in the collections the route files name. With a state
 * file, every mutation rewrites the file atomically (temporary file, then rename), so a killed
 * emulator never leaves half a file. The file holds the redacted snapshot: nothing the emulator
 * serves needs a secret back, and a test fixture on disk should not hold one.
 */
export class StateStore {
  private organizations = new Map<string, OrganizationRecords>();

  constructor(
    private readonly organizationIds: readonly string[],
    private readonly stateFile: string | undefined,
    private readonly kinds: readonly KindCollection[],
  ) {
    this.clearRecords();
    if (stateFile !== undefined && existsSync(stateFile)) this.load(stateFile);
  }

  /** Inserts or replaces, by the object's id. */
  save(collection: string, object: StoredObject): void {
    this.collectionOf(object.organizationId, collection).set(object.id, object);
    this.persist();
  }

  find<Stored extends StoredObject>(
    collection: string,
    organizationId: string,
    id: string,
  ): Stored | undefined {
    return this.organizations.get(organizationId)?.get(collection)?.get(id) as Stored | undefined;
  }

  /** A deep copy of a request body with every kind's secrets replaced, for the request log. */
  redacted<T>(body: T): T {
    return redactSecrets(body, this.kinds);
  }

  clear(): void {
    this.clearRecords();
    this.persist();
  }

  snapshot(): EmulatorState {
    const organizations: Record<string, OrganizationState> = {};
    for (const [id, records] of this.organizations) {
      const shown: Record<string, unknown> = {};
      for (const kind of this.kinds) {
        const objects = [...(records.get(kind.collection)?.values() ?? [])];
        shown[kind.collection] = kind.snapshot?.(objects) ?? objects;
      }
      organizations[id] = shown as unknown as OrganizationState;
    }
    return redactSecrets({ organizations }, this.kinds);
  }

  private clearRecords(): void {
    this.organizations = new Map();
    for (const id of this.organizationIds) this.recordsOf(id);
  }

  private recordsOf(organizationId: string): OrganizationRecords {
    let records = this.organizations.get(organizationId);
    if (records === undefined) {
      records = new Map(this.kinds.map((kind) => [kind.collection, new Map()]));
      this.organizations.set(organizationId, records);
    }
    return records;
  }

  private collectionOf(organizationId: string, collection: string): Map<string, StoredObject> {
    const records = this.recordsOf(organizationId);
    let objects = records.get(collection);
    if (objects === undefined) {
      objects = new Map();
      records.set(collection, objects);
    }
    return objects;
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
      for (const kind of this.kinds) {
        // A file an emulator without this kind wrote holds none of its objects.
        const shown = (state as Record<string, unknown>)[kind.collection];
        if (shown === undefined) continue;
        const objects = kind.restore?.(shown) ?? (shown as StoredObject[]);
        const collection = this.collectionOf(organizationId, kind.collection);
        for (const object of objects) collection.set(object.id, object);
      }
    }
  }
}
