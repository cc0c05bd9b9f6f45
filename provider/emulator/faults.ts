import { z } from "zod";
import type { ActiveFaultRule, FaultAction, FaultRule } from "./control-types";
import { echoTransforms } from "./echo-fault";
import { newFaultId } from "./ids";
import { pathMatches } from "./path-pattern";
import { seededRandom } from "./seeded-random";

export const faultRuleSchema: z.ZodType<FaultRule> = z.strictObject({
  method: z.string().min(1),
  path: z.string().startsWith("/"),
  times: z.number().int().positive().optional(),
  probability: z.number().min(0).max(1).optional(),
  action: z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("status"),
      status: z.number().int().min(400).max(599),
      retryAfterSeconds: z.number().int().nonnegative().optional(),
    }),
    z.strictObject({
      kind: z.literal("echo"),
      status: z.number().int().min(400).max(599),
      forms: z
        .array(
          z.strictObject({
            transforms: z.array(z.enum(echoTransforms)),
            before: z.string(),
            after: z.string(),
          }),
        )
        .min(1),
      as: z.enum(["json", "text"]).optional(),
      fields: z.array(z.string().min(1)).optional(),
    }),
    z.strictObject({ kind: z.literal("latency"), ms: z.number().int().nonnegative() }),
    z.strictObject({ kind: z.literal("hang") }),
    z.strictObject({ kind: z.literal("reset-before") }),
    z.strictObject({ kind: z.literal("reset-after") }),
    z.strictObject({ kind: z.literal("malformed-json") }),
    z.strictObject({ kind: z.literal("empty-clone") }),
    z.strictObject({ kind: z.literal("data-false") }),
  ]),
});

/**
 * "before" faults replace or delay processing; "after" faults act once the operation has been
 * validated, so a request the emulator would reject anyway never uses one up.
 */
export type FaultPhase = "before" | "after";

const PHASE_OF_KIND: Record<FaultAction["kind"], FaultPhase> = {
  status: "before",
  echo: "before",
  latency: "before",
  hang: "before",
  "reset-before": "before",
  "reset-after": "after",
  "malformed-json": "after",
  "empty-clone": "after",
  "data-false": "after",
};

/** Kinds that only make sense for one operation; other operations ignore them. */
const ROUTE_OF_KIND: Partial<Record<FaultAction["kind"], string>> = {
  "empty-clone": "voice-clone",
  "data-false": "webhook-subscribe",
};

export interface FaultTarget {
  method: string;
  path: string;
  routeId: string;
}

export class FaultRegistry {
  private rules: ActiveFaultRule[] = [];
  private random: () => number;
  private cleared = new AbortController();

  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  reseed(seed: number): void {
    this.random = seededRandom(seed);
  }

  add(rule: FaultRule): ActiveFaultRule {
    const active: ActiveFaultRule = { ...rule, id: newFaultId(), applied: 0 };
    this.rules.push(active);
    return active;
  }

  list(): readonly ActiveFaultRule[] {
    return this.rules;
  }

  /** Aborted by the next clear(): the latencies rules imposed end then, spent rules' too. */
  get clearedSignal(): AbortSignal {
    return this.cleared.signal;
  }

  clear(): number {
    const count = this.rules.length;
    this.rules = [];
    this.cleared.abort();
    this.cleared = new AbortController();
    return count;
  }

  /** Clears every rule (ending their latencies) and adds these, at once. */
  replace(rules: readonly FaultRule[]): readonly ActiveFaultRule[] {
    this.clear();
    return rules.map((rule) => this.add(rule));
  }

  /** The first rule that matches and fires wins; firing uses up one of its `times`. */
  take(phase: FaultPhase, target: FaultTarget): ActiveFaultRule | undefined {
    for (const rule of this.rules) {
      if (!this.matches(rule, phase, target)) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      rule.applied += 1;
      if (rule.times !== undefined) {
        rule.times -= 1;
        if (rule.times === 0) this.rules = this.rules.filter((other) => other !== rule);
      }
      return rule;
    }
    return undefined;
  }

  private matches(rule: ActiveFaultRule, phase: FaultPhase, target: FaultTarget): boolean {
    const kind = rule.action.kind;
    if (PHASE_OF_KIND[kind] !== phase) return false;
    const onlyRoute = ROUTE_OF_KIND[kind];
    if (onlyRoute !== undefined && onlyRoute !== target.routeId) return false;
    if (rule.method !== "*" && rule.method.toUpperCase() !== target.method.toUpperCase()) {
      return false;
    }
    return pathMatches(rule.path, target.path);
  }
}
