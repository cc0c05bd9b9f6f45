/**
 * What this process's calls learned about replacements, for a delete to tell the end of a
 * replacement from a destroy: the objects a diff found must be replaced, the resources this
 * process created an object for (not in a preview), and whether a program's resource was checked
 * (a run of the program, not a `pulumi destroy`).
 */
import { stateSlot } from "../settings/process-state";

const learned = stateSlot(() => ({
  /** `<type>\0<id>` of each object a diff of this provider found must be replaced. */
  replacing: new Set<string>(),
  /** URNs of the resources this provider created an object for. */
  created: new Set<string>(),
  checked: { any: false },
}));

const objectKey = (type: string, id: string) => `${type}\u0000${id}`;

export function rememberReplacing(type: string, id: string): void {
  learned().replacing.add(objectKey(type, id));
}

export function rememberCreated(urn: string): void {
  learned().created.add(urn);
}

export function rememberChecked(): void {
  learned().checked.any = true;
}

/** Whether this provider checked any resource of a program (a destroy checks none). */
export function programChecked(): boolean {
  return learned().checked.any;
}

/**
 * Whether deleting the object `id` of resource `urn` ends a replacement, and when: `after` its
 * resource's new object was created (the default), `deleteFirst` before it (a diff asked for the
 * replacement and nothing was created yet: `deleteBeforeReplace`), or `no`.
 */
export function endsReplacement(
  type: string,
  id: string,
  urn: string,
): "after" | "deleteFirst" | "no" {
  const { replacing, created } = learned();
  if (created.has(urn)) return "after";
  return replacing.has(objectKey(type, id)) ? "deleteFirst" : "no";
}
