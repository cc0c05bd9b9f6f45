import { knownString, resourcePolicy, stringList } from "../policy-args";

export const ADVANCED_WEBHOOK_METHOD = "advanced-webhook-method";

interface Config {
  readonly allowedMethods?: readonly string[];
}

/** The one method the spec names for an advanced webhook (section 4.4). */
const SPEC_METHODS = ["GET"];

export const advancedWebhookMethod = resourcePolicy<Config>(
  {
    name: ADVANCED_WEBHOOK_METHOD,
    description:
      "An advanced webhook's method is one the platform names (the spec gives GET only: what it does with another is not shown), and a GET carries no body, which servers ignore or refuse.",
    enforcementLevel: "mandatory",
    configSchema: {
      properties: {
        allowedMethods: stringList("Methods an advanced webhook may use.", SPEC_METHODS),
      },
    },
  },
  ["CampaignWebhook"],
  ({ props }, config, report) => {
    const advanced = props.advancedWebhook;
    if (advanced === null || typeof advanced !== "object") return;
    const allowed = (config.allowedMethods ?? SPEC_METHODS).map((m) => m.toUpperCase());
    const { method, body } = advanced as Record<string, unknown>;
    const given = knownString(method)?.toUpperCase();
    if (given !== undefined && !allowed.includes(given)) {
      report(
        `advancedWebhook.method is ${given}, which the platform does not name: use ${allowed.join(" or ")}`,
      );
    }
    if ((given ?? "GET") === "GET" && body !== undefined) {
      report(
        "advancedWebhook.body is set on a GET request (its value is secret and not shown): remove it",
      );
    }
  },
);
