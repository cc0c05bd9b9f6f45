/**
 * Every child process the benchmarks start, so none outlives the run: an interrupted or crashed
 * benchmark would otherwise leave emulators listening and provider processes running.
 */
const live = new Set<number>();

export function track(pid: number): () => void {
  live.add(pid);
  return () => live.delete(pid);
}

process.once("exit", () => {
  for (const pid of live) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => process.exit(130));
}
