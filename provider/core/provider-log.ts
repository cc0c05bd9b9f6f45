import { processState } from "../settings/process-state";

/**
 * Prints a warning from inside the provider process. `pulumi.log` does not work there, but the
 * engine shows the process's console output. Each warning is said once per process, because
 * check runs for every preview and update of every resource. A warning names inputs, never
 * quotes a secret one.
 */
export function warn(message: string): void {
  const said = processState().warningsSaid;
  if (said.has(message)) return;
  said.add(message);
  console.warn(`warning: ${message}`);
}

/** What delete says: the API has no delete operation, so the object outlives the resource. */
export function warnStaysOnPlatform(what: string): void {
  warn(
    `${what} stays on the platform: its API has no delete operation. It is only removed from the stack; ` +
      "delete it in the platform's console if it should go.",
  );
}
