import { withoutMarkedSecrets } from "../platform/marked-secrets";
import { callValue } from "../settings/call-context";
import { stateSlot } from "../settings/process-state";

/**
 * The URN of the resource whose call is running, set by the front ends, which know it: what the
 * call prints is shown on that resource, and a delete can tell whether its resource was just
 * created anew (a replacement).
 */
const currentCall = callValue("");

export function withResource<T>(urn: string, work: () => T): T {
  return currentCall.runWith(urn, work);
}

/** The URN of the running call's resource, or "" when the front end did not say. */
export function currentResource(): string {
  return currentCall.current();
}

/** What this provider has said already: each warning and notice is said once per provider. */
const said = stateSlot(() => new Set<string>());

function sayOnce(message: string, print: (text: string) => void): void {
  if (said().has(message)) return;
  said().add(message);
  print(message);
}

/**
 * Prints a warning from inside the provider process. `pulumi.log` does not work there, but the
 * engine shows the process's console output. Each warning is said once per process, because
 * check runs for every preview and update of every resource. A warning never quotes an input
 * the package calls secret, so only the values the user marked secret are blanked here (text
 * from the platform or other code goes through redaction).
 */
export function warn(message: string): void {
  sayOnce(withoutMarkedSecrets(message), (text) => console.warn(`warning: ${text}`));
}

/**
 * Says what the provider did when it is news but no problem (a refresh that could read nothing),
 * once per process, as `warn` does.
 */
export function inform(message: string): void {
  sayOnce(withoutMarkedSecrets(message), (text) => console.log(text));
}

export const LEDGER_KEEPS_IT =
  'The ledger keeps its id: `npx pulumi-voice-platform leftovers` lists it (docs/operations.md, "The ledger").';

/**
 * What a diff that replaces says, at preview too: the object the replacement leaves behind stays
 * on the platform, before anything happens.
 */
export function warnWillStay(what: string): void {
  warn(
    `${what} will be replaced, and the platform cannot delete: this object will stay on the platform beside its replacement. ` +
      "Keep the replacing inputs as deployed to avoid it. " +
      LEDGER_KEEPS_IT,
  );
}

/**
 * What delete says: the API has no delete operation, so the object outlives the resource; after a
 * replacement the platform holds it beside the new one.
 */
export function warnStaysOnPlatform(what: string, context: { replacing: boolean }): void {
  warn(
    context.replacing
      ? `${what} is replaced: its replacement is created and this one stays on the platform, since its API has no ` +
          "delete operation, so the platform holds both. Delete the old one in the platform's console if it should go. " +
          LEDGER_KEEPS_IT
      : `${what} stays on the platform: its API has no delete operation. It is only removed from the stack; ` +
          `delete it in the platform's console if it should go. ${LEDGER_KEEPS_IT}`,
  );
}

/**
 * A warning's template with its `{name}`s filled in, in one pass: templates are data, so the
 * Python SDK's mocks fill the same ones (codegen/python-input-check.ts).
 */
export function filledIn(
  template: string,
  values: Readonly<Record<string, string | number>>,
): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
