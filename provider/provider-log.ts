import { redactSecrets } from "./redaction";

const alreadySaid = new Set<string>();

/**
 * Prints a warning from inside the provider process. `pulumi.log` does not work there, but the
 * engine shows the process's console output. Each warning is said once per process, because
 * check runs for every preview and update of every resource.
 */
export function warn(message: string): void {
  const text = redactSecrets(message);
  if (alreadySaid.has(text)) return;
  alreadySaid.add(text);
  console.warn(`warning: ${text}`);
}
