/**
 * The one layer both front ends serve a resource through: every secret of a call remembered before
 * anything can fail, every error leaving redacted, previews answered without a call,
 * and import (adoption by id) handled the same way for the dynamic resources and the plugin. The
 * front ends only translate their wire format (`__provider`, gRPC structs) onto it.
 */
import { pathSegmentProblem } from "./path-segment";
import { plannedCreateState, plannedUpdateState } from "./planned-state";
import { secretValues } from "./secret-paths";
import type { CheckAnswer, DiffAnswer, Inputs, ResourceDescriptor } from "./resource-descriptor";
import { rethrowRedacted, UnsafePathError } from "../platform/errors";
import { rememberSecret, rememberSecretWireFields } from "../platform/redaction";

/**
 * Marks the state of an object adopted by id (import): the API has no read, so nothing about it
 * is known until the declared inputs are recorded by the update that follows.
 */
export const IMPORTED_WITHOUT_READ = "importedWithoutRead";

const adopted = (olds: Inputs) => olds[IMPORTED_WITHOUT_READ] === true;

export interface ServedResource {
  readonly descriptor: ResourceDescriptor<object>;
  check(olds: Inputs, news: Inputs): Promise<CheckAnswer>;
  diff(id: string, olds: Inputs, news: Inputs): Promise<DiffAnswer>;
  /** A preview gets the planned state and no id: nothing is sent. */
  create(news: Inputs, preview?: boolean): Promise<{ id?: string; state: object }>;
  update(id: string, olds: Inputs, news: Inputs, preview?: boolean): Promise<object>;
  delete(id: string, olds: Inputs): Promise<void>;
  /**
   * The API has no read. A refresh gets back what state holds; an import (an id and no state)
   * gets a marker, so the update that follows records the declared inputs without a call.
   */
  read(id: string, state: Inputs): Inputs;
}

export function servedResource(descriptor: ResourceDescriptor<object>): ServedResource {
  const remember = (...bags: Inputs[]) => {
    rememberSecretWireFields(descriptor.secretWireFields);
    bags.forEach((bag) => secretValues(bag, descriptor.secretInputs).forEach(rememberSecret));
  };
  return Object.freeze({
    descriptor,
    async check(olds: Inputs, news: Inputs) {
      remember(olds, news);
      // Failures name secret inputs and show "[secret]" for their values (core/check).
      return descriptor.check(olds, news).catch(rethrowRedacted);
    },
    async diff(id: string, olds: Inputs, news: Inputs) {
      remember(olds, news);
      // An adopted object's state holds nothing to compare: recording the declared inputs is an update.
      if (adopted(olds)) return { changes: true, replaces: [], deleteBeforeReplace: false };
      return descriptor.diff(id, olds, news).catch(rethrowRedacted);
    },
    async create(news: Inputs, preview = false) {
      remember(news);
      if (preview) return { state: plannedCreateState(descriptor, news) };
      return descriptor.create(news).catch(rethrowRedacted);
    },
    async update(id: string, olds: Inputs, news: Inputs, preview = false) {
      remember(olds, news);
      if (adopted(olds)) {
        if (preview) return plannedCreateState(descriptor, news);
        return descriptor.stateAfterCreate(id, news).catch(rethrowRedacted);
      }
      if (preview) return plannedUpdateState(descriptor, olds, news);
      return descriptor.update(id, olds, news).catch(rethrowRedacted);
    },
    async delete(id: string, olds: Inputs) {
      remember(olds);
      return descriptor.delete(id, olds).catch(rethrowRedacted);
    },
    read(id: string, state: Inputs) {
      const problem = pathSegmentProblem(id);
      // Ids become path segments of later calls: refused here, before state holds one.
      if (problem !== undefined) throw new UnsafePathError("import", "the id", id, problem);
      return Object.keys(state).length === 0 ? { [IMPORTED_WITHOUT_READ]: true } : state;
    },
  });
}
