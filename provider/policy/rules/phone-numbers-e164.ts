import { e164Number } from "../../core/input-rules";
import { knownList, knownString, resourcePolicy, stringList } from "../policy-args";

export const PHONE_NUMBERS_E164 = "phone-numbers-e164";

interface Config {
  readonly requirePlus?: boolean;
  readonly countryCodes?: readonly string[];
}

export const phoneNumbersE164 = resourcePolicy<Config>(
  {
    name: PHONE_NUMBERS_E164,
    description:
      "A carrier's phone numbers are written in E.164 (+14155550100): the platform matches calls to numbers as written, so a local form (0415 555 0100) never matches a call.",
    enforcementLevel: "mandatory",
    configSchema: {
      properties: {
        requirePlus: {
          type: "boolean",
          description: "Numbers start with +, as E.164 prints them.",
          default: true,
        },
        countryCodes: stringList("Calling codes the numbers may have (1, 44, …); none: any.", []),
      },
    },
  },
  ["SipCarrier"],
  ({ props }, config, report) => {
    const codes = config.countryCodes ?? [];
    knownList(props.phoneNumbers).forEach((item, index) => {
      const number = knownString(item.phoneNumber);
      if (number === undefined) return;
      const at = `phoneNumbers[${index}].phoneNumber ${JSON.stringify(number)}`;
      if (!e164Number.safeParse(number).success) {
        report(
          `${at} is not an E.164 number: write it as + country code and number, e.g. +14155550100`,
        );
      } else if ((config.requirePlus ?? true) && !number.startsWith("+")) {
        report(`${at} has no leading +: write it as +${number}`);
      } else if (
        codes.length > 0 &&
        !codes.some((code) => number.replace(/^\+/, "").startsWith(code))
      ) {
        report(
          `${at} has none of the allowed calling codes (${codes.join(", ")}): use one, or list its code in this rule's countryCodes`,
        );
      }
    });
  },
);
