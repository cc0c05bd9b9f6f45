/**
 * What this process's calls learned about replacements, for a delete to tell the end of a
 * replacement from a destroy: the objects a diff found must be replaced, and the resources this
 * process created an object for (not in a preview).
 */
import { stateSlot } from "../settings/process-state";

const learned = stateSlot(() => ({
  /** `<type>\0<id>` of each object a diff of this provider found must be replaced. */
  replacing: new Set<string>(),
  /** URNs of the resources this provider created an object for. */
  created: new Set<string>(),
}));

const objectKey = (type: string, id: string) => `${type}\u0000${id}`;

export function rememberReplacing(type: string, id: string): void {
  learned().replacing.add(objectKey(type, id));
}

export function rememberCreated(urn: string): void {
  learned().created.add(urn);
}

/**
 * Whether deleting the object `id` of resource `urn` ends a replacement: a replacement creates
 * first (the new object of the same resource), unless it deletes first, which only a diff that
 * asked for the replacement can tell.
 */
export function endsReplacement(type: string, id: string, urn: string): boolean {
  const { replacing, created } = learned();
  return replacing.has(objectKey(type, id)) || created.has(urn);
}
