/**
 * The one reset of everything the provider process keeps between calls. The engine runs many
 * resource operations in one process, and they share what earlier calls learned: the settings
 * `configure` was given, the connection pool, the pacing learned from 429s, the secrets to keep
 * out of messages, the sample hashes already computed, the warnings already said. Each concern
 * keeps its state in a small module of its own floor (each module that calls `registerReset`),
 * which registers its reset here when it loads: a module never loaded holds nothing to reset.
 */

type Reset = () => void | Promise<void>;

const resets: Reset[] = [];

/** Called once by each module holding process-wide state, with what forgets that state. */
export function registerReset(reset: Reset): void {
  resets.push(reset);
}

/**
 * Forgets everything at once, as a new process would start: for tests and benchmarks. Every state
 * is fresh when this returns; calls in flight finish on the old connections, which close once
 * they are done, and the promise resolves then.
 */
export async function resetProcessState(): Promise<void> {
  await Promise.all(resets.map((reset) => reset()));
}
