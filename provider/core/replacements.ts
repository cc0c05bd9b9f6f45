/**
 * What this process's calls learned about replacements, for a delete to tell the end of a
 * replacement from a destroy: the objects a diff found must be replaced, and the resources this
 * process created an object for (not in a preview).
 */
import { registerReset } from "../settings/process-state";

/** `<type>\0<id>` of each object a diff of this process found must be replaced. */
let replacing = new Set<string>();
/** URNs of the resources this process created an object for. */
let created = new Set<string>();

registerReset(() => {
  replacing = new Set();
  created = new Set();
});

const objectKey = (type: string, id: string) => `${type}\u0000${id}`;

export function rememberReplacing(type: string, id: string): void {
  replacing.add(objectKey(type, id));
}

export function rememberCreated(urn: string): void {
  created.add(urn);
}

/**
 * Whether deleting the object `id` of resource `urn` ends a replacement: a replacement creates
 * first (the new object of the same resource), unless it deletes first, which only a diff that
 * asked for the replacement can tell.
 */
export function endsReplacement(type: string, id: string, urn: string): boolean {
  return replacing.has(objectKey(type, id)) || created.has(urn);
}
