import type { ResourceValidationPolicy } from "@pulumi/policy";
import { namedSecretValues } from "../../core/secret-paths";
import { kindOfType } from "../../schema/type-tokens";
import { descriptorOf } from "../../resources";
import { secretSettings } from "../../settings/config";
import { plainProps } from "../policy-args";
import { programFiles, secretConfigKeys, stackConfig, type ProgramFile } from "../stack-facts";

export const SECRETS_FROM_SECRET_CONFIG = "secrets-from-secret-config";

/** The explicit and default providers of the plugin: their apiKey is a secret input too. */
const PROVIDER_TYPE = "pulumi:providers:voiceplatform";

/** Shorter values occur in any text by chance: only equal values count. */
const SHORTEST_FOUND_INSIDE = 6;

const holds = (text: string, value: string) =>
  text === value || (value.length >= SHORTEST_FOUND_INSIDE && text.includes(value));

/** The secret inputs of a resource or provider, by path, with the values given. */
function secretInputs(type: string, props: Record<string, unknown>) {
  const paths =
    type === PROVIDER_TYPE ? secretSettings : descriptorOf(kindOfType(type)!.kind).secretInputs;
  return namedSecretValues(props, paths).filter(
    (found): found is { name: string; value: string } =>
      typeof found.value === "string" && found.value !== "",
  );
}

/**
 * Where a secret value shows in plain text: a config key not set with --secret (when the stack's
 * config file tells which are), or the program's source.
 */
function whereShown(
  value: string,
  config: Record<string, string>,
  secretKeys: ReadonlySet<string> | undefined,
  files: readonly ProgramFile[] | undefined,
): string | undefined {
  const key =
    secretKeys === undefined
      ? undefined
      : Object.entries(config).find(
          ([name, configured]) => !secretKeys.has(name) && holds(configured, value),
        )?.[0];
  if (key !== undefined) {
    return `comes from the plain config key ${key}: set it with \`pulumi config set --secret ${key.split(":").pop()}\``;
  }
  const file = files?.find((f) => f.text.includes(value));
  if (file !== undefined) {
    return `is written in the program (${file.name}): read it from secret config, e.g. config.requireSecret(...)`;
  }
  return undefined;
}

export const secretsFromSecretConfig: ResourceValidationPolicy = {
  name: SECRETS_FROM_SECRET_CONFIG,
  description:
    "registerPassword, a webhook's secret fields (advancedWebhook.url, header and parameter values, body) and the provider's apiKey come from secret config (`pulumi config set --secret`), never from a plain config value or the program's source, where every clone and log of the repository holds them. Checked where the stack's configuration is known (preview and up); the program's source and its stack's config file (which says which keys are secret) are read from the folder `pulumi` runs in when it is the project's.",
  enforcementLevel: "mandatory",
  validateResource: (args, reportViolation) => {
    if (args.type !== PROVIDER_TYPE && kindOfType(args.type) === undefined) return;
    const config = stackConfig();
    if (config === undefined) {
      args.notApplicable("the stack's configuration is not known here (pulumi policy analyze)");
    }
    const found = secretInputs(args.type, plainProps(args.props));
    if (found.length === 0) return;
    const [secretKeys, files] = [secretConfigKeys(), programFiles()];
    for (const { name, value } of found) {
      const shown = whereShown(value, config!, secretKeys, files);
      if (shown !== undefined)
        reportViolation(`${name} (its value is secret and not shown) ${shown}`);
    }
  },
};
