import { withoutMarkedSecrets, type NamedSecret } from "../platform/marked-secrets";
import { stateSlot, type ProviderStates } from "../settings/process-state";

/** How much a line of the provider's log matters to the user. */
export type LogSeverity = "warning" | "info";

/**
 * Where a line of the provider's log goes, with the URN of the resource it concerns ("" for
 * none): the front end's choice (the engine's log, plugin/engine-log.ts).
 */
export type LogPrinter = (severity: LogSeverity, text: string, urn: string) => void;

/** The process's console, where no engine listens (a test calling the handlers). */
export const consolePrinter: LogPrinter = (severity, text) =>
  severity === "warning" ? console.warn(`warning: ${text}`) : console.log(text);

/** What this provider has said already: each warning and notice is said once per provider. */
const saidIn = stateSlot(() => new Set<string>());

/**
 * The log of one call: what it prints is shown on `resource`, the URN of the resource the call
 * concerns ("" when the front end did not say), and a delete can tell from it whether its
 * resource was just created anew (a replacement).
 */
export interface ProviderLog {
  readonly resource: string;
  readonly print: LogPrinter;
  /**
   * Prints a warning. `pulumi.log` does not work in a provider process; the front end's printer
   * reaches the engine. Each warning is said once per provider, because check runs for every
   * preview and update of every resource. A warning never quotes an input the package calls
   * secret, so only the values the user marked secret are blanked here (text from the platform
   * or other code goes through redaction).
   */
  warn(message: string): void;
  /** Says what the provider did when it is news but no problem, once per provider, as `warn` does. */
  inform(message: string): void;
}

export interface ProviderLogParts {
  /** The provider's states: what it has said already is among them. */
  readonly states: ProviderStates;
  readonly resource: string;
  readonly markedSecrets: readonly NamedSecret[];
  readonly print: LogPrinter;
}

export function providerLog({
  states,
  resource,
  markedSecrets,
  print,
}: ProviderLogParts): ProviderLog {
  const sayOnce = (severity: LogSeverity, message: string) => {
    const text = withoutMarkedSecrets(message, markedSecrets);
    const said = saidIn(states);
    if (said.has(text)) return;
    said.add(text);
    print(severity, text, resource);
  };
  return Object.freeze({
    resource,
    print,
    warn: (message: string) => sayOnce("warning", message),
    inform: (message: string) => sayOnce("info", message),
  });
}

export const LEDGER_KEEPS_IT =
  'The ledger keeps its id: `npx pulumi-voice-platform leftovers` lists it (docs/operations.md, "The ledger").';

/**
 * What a diff that replaces says, at preview too: the object the replacement leaves behind stays
 * on the platform, before anything happens.
 */
export function warnWillStay(log: ProviderLog, what: string): void {
  log.warn(
    `${what} will be replaced, and the platform cannot delete: this object will stay on the platform beside its replacement. ` +
      "Keep the replacing inputs as deployed to avoid it. " +
      LEDGER_KEEPS_IT,
  );
}

/**
 * What delete says: the API has no delete operation, so the object outlives the resource; after a
 * replacement the platform holds it beside the new one.
 */
export function warnStaysOnPlatform(
  log: ProviderLog,
  what: string,
  context: { replacing: boolean },
): void {
  log.warn(
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
