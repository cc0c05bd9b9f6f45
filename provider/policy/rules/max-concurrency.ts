import type { StackValidationPolicy } from "@pulumi/policy";
import { kindOfType } from "../../schema/type-tokens";
import { settingDefaults, settingSources } from "../../settings/config";
import { plainProps, violationLine, withCommonSettings } from "../policy-args";
import { checkedSettings, isExempt } from "../rule-settings";
import { stackConfig } from "../stack-facts";

export const MAX_CONCURRENCY = "max-concurrency";

interface Config {
  readonly maxConcurrency?: number;
}

const PROVIDER_TYPE = "pulumi:providers:voiceplatform";
const CONFIG_KEY = settingSources.maxConcurrency.key;

const description =
  "The provider's maxConcurrency (calls in flight at once, per provider process) stays within what the team's platform plan allows (this rule's maxConcurrency, by default the provider's own default): the spec states no rate limit, and calls beyond the plan's are refused with 429s that slow every deployment.";

const configSchema = withCommonSettings({
  properties: {
    maxConcurrency: {
      type: "integer",
      description: "The most calls in flight the platform plan allows.",
      default: settingDefaults.maxConcurrency,
    },
  },
});

/** A count as a provider input or stack config gives it: a number, or text holding one. */
function countOf(value: unknown): number | undefined {
  const count = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof count === "number" && Number.isFinite(count) ? count : undefined;
}

function tooMany(given: number, config: Config, where: string): string | undefined {
  const limit = config.maxConcurrency ?? settingDefaults.maxConcurrency;
  return given > limit
    ? `${where} is ${given}, more than the ${limit} calls in flight the platform plan allows: lower it to ${limit} or less`
    : undefined;
}

/**
 * Explicit providers and the default one the engine makes from the stack's voiceplatform:*
 * config, and for the dynamic resources, which have no provider resource, the stack config their
 * provider reads.
 */
export const maxConcurrency: StackValidationPolicy = {
  name: MAX_CONCURRENCY,
  description,
  enforcementLevel: "mandatory",
  configSchema,
  validateStack: (args, reportViolation) => {
    const config = checkedSettings(MAX_CONCURRENCY, configSchema, args.getConfig<Config>());
    const providers = args.resources.filter((r) => r.type === PROVIDER_TYPE);
    for (const provider of providers.filter((r) => !isExempt(config, r.name))) {
      const given = countOf(plainProps(provider.props).maxConcurrency);
      const problem = given === undefined ? undefined : tooMany(given, config, "maxConcurrency");
      if (problem !== undefined)
        reportViolation(violationLine(MAX_CONCURRENCY, provider.name, problem), provider.urn);
    }
    const dynamic = args.resources.some((r) => kindOfType(r.type)?.frontEnd === "dynamic");
    const given = countOf(stackConfig()?.[CONFIG_KEY]);
    if (!dynamic || given === undefined) return;
    const problem = tooMany(given, config, `stack config ${CONFIG_KEY}`);
    if (problem !== undefined) reportViolation(violationLine(MAX_CONCURRENCY, undefined, problem));
  },
};
