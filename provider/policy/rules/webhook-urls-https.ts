import { parseHttpUrl } from "../../settings/setting-rules";
import { knownString, resourcePolicy, stringList } from "../policy-args";

export const WEBHOOK_URLS_HTTPS = "webhook-urls-https";

interface Config {
  readonly allowHttpHosts?: readonly string[];
}

/** The problem with a webhook URL that does not use https; undefined when it does or is allowed. */
function plainHttp(url: string, allowHttpHosts: readonly string[]): "http" | undefined {
  const parsed = parseHttpUrl(url);
  if (parsed === undefined || parsed.protocol === "https:") return undefined;
  return allowHttpHosts.includes(parsed.hostname) ? undefined : "http";
}

export const webhookUrlsHttps = resourcePolicy<Config>(
  {
    name: WEBHOOK_URLS_HTTPS,
    description:
      "A campaign webhook's url and advancedWebhook.url use https: the platform sends each call's outcome (who answered, and how) to them, and a token in the URL travels with it.",
    enforcementLevel: "mandatory",
    configSchema: {
      properties: {
        allowHttpHosts: stringList(
          "Hosts a webhook may call over plain http (a receiver inside the platform's network).",
          [],
        ),
      },
    },
  },
  ["CampaignWebhook"],
  ({ props }, config, report) => {
    const allowed = config.allowHttpHosts ?? [];
    const url = knownString(props.url);
    if (url !== undefined && plainHttp(url, allowed)) {
      const host = parseHttpUrl(url)?.hostname ?? "";
      report(
        `url uses plain http (host ${host}): use https://${host}/…, or list the host in this rule's allowHttpHosts`,
      );
    }
    const advanced = props.advancedWebhook as Record<string, unknown> | undefined;
    const advancedUrl = knownString(advanced?.url);
    if (advancedUrl !== undefined && plainHttp(advancedUrl, allowed)) {
      // The whole URL is secret (it can carry a token): not even its host is shown.
      report("advancedWebhook.url uses plain http (its value is secret and not shown): use https");
    }
  },
);
