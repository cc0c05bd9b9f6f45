import type { ResourceValidationPolicy } from "@pulumi/policy";
import { RESOURCE_KEY } from "../../core/hidden-properties";
import { kindOfType } from "../../schema/type-tokens";
import { descriptorOf } from "../../resources";
import { secretSettings } from "../../settings/config";
import { plainProps, stringList, violationLine, withCommonSettings } from "../policy-args";
import { checkedSettings, isExempt } from "../rule-settings";
import { secretConfigKeys, stackConfig } from "../stack-facts";

export const SECRETS_FROM_SECRET_CONFIG = "secrets-from-secret-config";

/** The explicit and default providers of the plugin: their apiKey is a secret input too. */
const PROVIDER_TYPE = "pulumi:providers:voiceplatform";

interface Config {
  readonly plainAllowed?: readonly string[];
}

/**
 * Secret inputs a program may write as plain values: the platform keeps them secret because they
 * can carry a token, and one the program writes plain is its word that this one carries none.
 */
const PLAIN_ALLOWED = ["advancedWebhook.url", "advancedWebhook.parameters[].value"];

/** A secret input's value, by the path the program wrote (`advancedWebhook.headers[0].value`). */
interface SecretLeaf {
  readonly path: string;
  /** The descriptor's path of it (`advancedWebhook.headers[].value`). */
  readonly pattern: string;
  readonly value: unknown;
}

function leavesAt(bag: Record<string, unknown>, pattern: string): SecretLeaf[] {
  const found: SecretLeaf[] = [];
  const walk = (holder: Record<string, unknown>, segments: readonly string[], at: string) => {
    const [head, ...rest] = segments as [string, ...string[]];
    const list = head.endsWith("[]");
    const key = list ? head.slice(0, -2) : head;
    const value = holder[key];
    const path = at === "" ? key : `${at}.${key}`;
    if (value === undefined || value === null) return;
    if (rest.length === 0) return void found.push({ path, pattern, value });
    const children: [unknown, string][] = list
      ? (Array.isArray(value) ? value : []).map((item, index) => [item, `${path}[${index}]`])
      : [[value, path]];
    for (const [child, childPath] of children) {
      if (child !== null && typeof child === "object")
        walk(child as Record<string, unknown>, rest, childPath);
    }
  };
  walk(bag, pattern.split("."), "");
  return found;
}

function secretLeaves(type: string, props: Record<string, unknown>): SecretLeaf[] {
  const patterns =
    type === PROVIDER_TYPE ? secretSettings : descriptorOf(kindOfType(type)!.kind).secretInputs;
  return patterns.flatMap((pattern) => leavesAt(props, pattern));
}

/**
 * The secret inputs the program gave as plain values, not secret outputs, by path: the dynamic
 * resources record them before making every secret input secret (dynamic-class.ts), which is all
 * the engine then shows a pack.
 */
function writtenPlain(props: Record<string, unknown>): readonly string[] {
  const facts = props[RESOURCE_KEY] as { plainSecrets?: unknown } | undefined;
  return Array.isArray(facts?.plainSecrets) ? (facts.plainSecrets as string[]) : [];
}

/** The plain (not --secret) config key whose value is exactly this one, if any. */
function plainConfigKey(
  value: unknown,
  config: Record<string, string>,
  secretKeys: ReadonlySet<string> | undefined,
): string | undefined {
  if (secretKeys === undefined || typeof value !== "string" || value === "") return undefined;
  return Object.entries(config).find(
    ([name, configured]) => !secretKeys.has(name) && configured === value,
  )?.[0];
}

const configSchema = withCommonSettings({
  properties: {
    plainAllowed: stringList(
      "Secret inputs (as docs/policies.md names them) the program may write as plain values.",
      PLAIN_ALLOWED,
    ),
  },
});

export const secretsFromSecretConfig: ResourceValidationPolicy = {
  name: SECRETS_FROM_SECRET_CONFIG,
  description:
    "registerPassword, a webhook's header values and body (and advancedWebhook.url and parameter values, unless plainAllowed lets the program write them plain) and the provider's apiKey are secret values (config.requireSecret, pulumi.secret): not a plain config value, nor a plain value written in the program, which every clone and log of the repository holds. Judged on the values the program declared: a config value counts when it equals the input's whole value, and the stack's config file (which says which keys are --secret) is read from the folder `pulumi` runs in when it is the project's. The plugin's resources record no plain values: for them only config is judged.",
  enforcementLevel: "mandatory",
  configSchema,
  validateResource: (args, reportViolation) => {
    const config = checkedSettings(
      SECRETS_FROM_SECRET_CONFIG,
      configSchema,
      args.getConfig<Config>(),
    );
    if (args.type !== PROVIDER_TYPE && kindOfType(args.type) === undefined) return;
    if (isExempt(config, args.name)) return;
    const stack = stackConfig();
    if (stack === undefined) {
      args.notApplicable("the stack's configuration is not known here (pulumi policy analyze)");
    }
    const props = plainProps(args.props);
    const report = (message: string) =>
      reportViolation(violationLine(SECRETS_FROM_SECRET_CONFIG, args.name, message));
    const secretKeys = secretConfigKeys();
    const allowed = config.plainAllowed ?? PLAIN_ALLOWED;
    const plain = writtenPlain(props);
    for (const { path, pattern, value } of secretLeaves(args.type, props)) {
      const key = plainConfigKey(value, stack!, secretKeys);
      if (key !== undefined) {
        report(
          `${path} (secret, not shown) is the plain config value ${key}: set it with \`pulumi config set --secret ${key.split(":").pop()}\``,
        );
      } else if (plain.includes(path) && !allowed.includes(pattern)) {
        report(
          `${path} (secret, not shown) is a plain value in the program: give it a secret, e.g. config.requireSecret("…") or pulumi.secret(…)`,
        );
      }
    }
  },
};
