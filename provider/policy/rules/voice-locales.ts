import { knownString, resourcePolicy, stringList } from "../policy-args";

export const VOICE_LOCALES = "voice-locales";

interface Config {
  readonly allowedLocales?: readonly string[];
}

const languages = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

/** ZZ, CLDR's code for an unknown region, which DisplayNames names "Unknown Region". */
const UNKNOWN_REGION = "ZZ";

/**
 * Why a locale code names no real language and region, by the Unicode locale data Node carries;
 * undefined when it does. A deprecated code (en-UK, whose region is GB) says its current form.
 */
function unrealLocale(code: string): string | undefined {
  const [language = "", region = ""] = code.split("-");
  if (languages.of(language.toLowerCase()) === undefined)
    return `${language} is no language code: write an ISO 639 code, e.g. en`;
  if (region.toUpperCase() === UNKNOWN_REGION || regions.of(region.toUpperCase()) === undefined) {
    return `${region} is no region code: write an ISO 3166 code, e.g. US`;
  }
  const canonical = Intl.getCanonicalLocales(code)[0];
  if (canonical !== undefined && canonical.toLowerCase() !== code.toLowerCase()) {
    return `it is written ${canonical} today, and the platform matches locales as written: write ${canonical}`;
  }
  return undefined;
}

export const voiceLocales = resourcePolicy<Config>(
  {
    name: VOICE_LOCALES,
    description:
      "A voice's supportedLocales are ones the team serves (allowedLocales), or when none are listed real language-REGION codes: a code like en-UK (the region is GB) is accepted by the platform and matches no caller.",
    enforcementLevel: "advisory",
    configSchema: {
      properties: {
        allowedLocales: stringList(
          "Locales voices may support, e.g. en-US, es-ES; none: any real one.",
          [],
        ),
      },
    },
  },
  ["Voice"],
  ({ props }, config, report) => {
    const allowed = (config.allowedLocales ?? []).map((code) => code.toLowerCase());
    const locales = Array.isArray(props.supportedLocales) ? props.supportedLocales : [];
    // A set: check stores it sorted, and the pack sees it so, so an index would not be the
    // program's. The item is named by its value.
    for (const value of locales) {
      const code = knownString(value);
      if (code === undefined) continue;
      const at = `supportedLocales ${code}`;
      if (allowed.length > 0 && !allowed.includes(code.toLowerCase())) {
        report(
          `${at} is not among the allowed locales (${config.allowedLocales!.join(", ")}): use one of them, or add it to this rule's allowedLocales`,
        );
        continue;
      }
      const problem = allowed.length === 0 ? unrealLocale(code) : undefined;
      if (problem !== undefined) report(`${at}: ${problem}`);
    }
  },
);
