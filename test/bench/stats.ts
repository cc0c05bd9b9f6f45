/** Order statistics over measured durations. Nearest-rank, so every figure is a measured value. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (values: readonly number[]): number => percentile(values, 0.5);
export const p90 = (values: readonly number[]): number => percentile(values, 0.9);

export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Milliseconds since `start` (a `performance.now()` reading). */
export const since = (start: number): number => performance.now() - start;
