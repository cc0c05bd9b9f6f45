/**
 * What this process's calls learned about replacements, for a delete to tell the end of a
 * replacement from a destroy: the objects a diff found must be replaced, the resources this
 * process created an object for (not in a preview), and whether a program's resource was checked
 * (a run of the program, not a `pulumi destroy`).
 */
import { stateSlot, type ProviderStates } from "../settings/process-state";

const learned = stateSlot(() => ({
  /** `<type>\0<id>` of each object a diff of this provider found must be replaced. */
  replacing: new Set<string>(),
  /** URNs of the resources this provider created an object for. */
  created: new Set<string>(),
  /**
   * The object id of each resource a diff compared without asking for a replacement, by URN: a
   * create or delete of that URN in the same run is a replacement the engine chose
   * (`replaceOnChanges`, a replacement of a dependency), not a new resource or a removal.
   */
  diffedInPlace: new Map<string, string>(),
  checked: { any: false },
}));

const objectKey = (type: string, id: string) => `${type}\u0000${id}`;

export function rememberReplacing(states: ProviderStates, type: string, id: string): void {
  learned(states).replacing.add(objectKey(type, id));
}

export function rememberDiffedInPlace(states: ProviderStates, urn: string, id: string): void {
  learned(states).diffedInPlace.set(urn, id);
}

/**
 * The object a create of `urn` replaces when the engine chose the replacement after a diff in
 * place, once: a second create of the same URN replaces nothing new.
 */
export function replacedByEngine(states: ProviderStates, urn: string): string | undefined {
  const { diffedInPlace } = learned(states);
  const id = diffedInPlace.get(urn);
  diffedInPlace.delete(urn);
  return id;
}

export function rememberCreated(states: ProviderStates, urn: string): void {
  learned(states).created.add(urn);
}

export function rememberChecked(states: ProviderStates): void {
  learned(states).checked.any = true;
}

/** Whether this provider checked any resource of a program (a destroy checks none). */
export function programChecked(states: ProviderStates): boolean {
  return learned(states).checked.any;
}

/**
 * Whether deleting the object `id` of resource `urn` ends a replacement, and when: `after` its
 * resource's new object was created (the default), `deleteFirst` before it (a diff asked for the
 * replacement and nothing was created yet: `deleteBeforeReplace`), or `no`.
 */
export function endsReplacement(
  states: ProviderStates,
  type: string,
  id: string,
  urn: string,
): "after" | "deleteFirst" | "no" {
  const { replacing, created, diffedInPlace } = learned(states);
  if (created.has(urn)) return "after";
  // A removed resource is never diffed: a delete of one that was is a replacement, deleting first.
  if (diffedInPlace.get(urn) === id) return "deleteFirst";
  return replacing.has(objectKey(type, id)) ? "deleteFirst" : "no";
}
