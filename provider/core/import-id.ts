/**
 * Whether an id given for an existing object (an import, `get()`, a recovered create) can be that
 * object's id. The API does not document the form of ids, so only what no id can be is refused
 * for every kind: empty, whitespace or control characters (a copy-paste slip), a URN, or a path
 * segment that would send later calls elsewhere. A kind whose id has a form of its own, or whose
 * id the inputs decide, checks the rest itself (`recovery.idProblem`), with the same words
 * wherever the id comes from.
 */
import { pathSegmentProblem } from "../platform/path-segment";
import type { Inputs, ResourceDescriptor } from "./resource-descriptor";

export function importIdProblem(
  descriptor: ResourceDescriptor<object>,
  id: string,
  inputs: Inputs,
): string | undefined {
  if (id.trim() === "") return "is empty: give the id the platform shows for this object";
  if (/[\s\p{Cc}]/u.test(id)) {
    return `${JSON.stringify(id)} contains whitespace or control characters, which no platform id has: copy the id alone`;
  }
  if (id.startsWith("urn:"))
    return `${JSON.stringify(id)} is a URN, not the platform's id of the object`;
  const segment = pathSegmentProblem(id);
  if (segment !== undefined) return segment;
  return descriptor.recovery.idProblem?.(id, inputs);
}
