/**
 * The one guard of the test suites that need the Pulumi CLI (and maybe a language host beside it,
 * or another tool such as PostgreSQL): `requirePulumiCli()` locates the CLI and returns it with a
 * `describe` for the suites. When everything is there that is jest's `describe`. When something
 * is missing the suites are skipped with one message, except under CI, where a missing tool means
 * a broken install step: there one failing test says what is missing.
 *
 * Call it at the top level of a test file (or inside a function a test file calls at its top
 * level, as describeE2E does): the failing test or the warning is registered by the call.
 * Scripts and benches outside jest throw their own errors instead.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { locatePulumi, requestedCliVersion, type PulumiCli } from "../pulumi-cli/locate";

export const PULUMI_CLI_MISSING =
  "No Pulumi CLI found (none on PATH, no build in the toolchain cache): run `npm run pulumi:install`.";

/** What is said when PULUMI_CLI_VERSION names a version whose build is not there. */
export function requestedCliMissing(version: string): string {
  return (
    `No build of Pulumi CLI ${version} (PULUMI_CLI_VERSION) in the toolchain cache: ` +
    `run \`PULUMI_CLI_VERSION=${version} npm run pulumi:install\`.`
  );
}

/** Something else a suite needs, and what to say when it is not there. */
export interface Requirement {
  available: boolean;
  missing: string;
}

export interface RequirePulumiCliOptions {
  /** Pulumi language hosts that must sit beside the CLI, e.g. `["yaml"]` for pulumi-language-yaml. */
  languageHosts?: readonly string[];
  /** Other tools the suites need (checked after the CLI). */
  also?: readonly Requirement[];
  /** What needs them, put before the message, e.g. the suite's title. */
  purpose?: string;
}

export interface RequiredPulumiCli {
  /** The located CLI; undefined only when it is missing, and then `describe` skips or fails. */
  cli: PulumiCli | undefined;
  /** What is missing (every message, joined), or undefined when everything is there. */
  missing: string | undefined;
  /** jest's `describe` when everything is there, else `describe.skip`. */
  describe: jest.Describe;
}

/** What is missing for these options, or undefined; does not register anything. */
export function missingForPulumiCli(
  cli: PulumiCli | undefined,
  { languageHosts = [], also = [] }: RequirePulumiCliOptions = {},
): string | undefined {
  const messages: string[] = [];
  const requested = requestedCliVersion();
  if (cli === undefined)
    messages.push(requested === undefined ? PULUMI_CLI_MISSING : requestedCliMissing(requested));
  else {
    const hosts = languageHosts.filter(
      (language) => !existsSync(join(cli.binDir, `pulumi-language-${language}`)),
    );
    if (hosts.length > 0) {
      messages.push(
        `No ${hosts.map((language) => `pulumi-language-${language}`).join(", ")} beside the ` +
          "Pulumi CLI: run `npm run pulumi:install`.",
      );
    }
  }
  for (const requirement of also) if (!requirement.available) messages.push(requirement.missing);
  return messages.length === 0 ? undefined : messages.join(" ");
}

/**
 * The located Pulumi CLI and a `describe` that runs the suites when the CLI (and the language
 * hosts and tools of `options`) are there; otherwise skips them with a warning, or under CI
 * registers one failing test naming what is missing.
 */
export function requirePulumiCli(options: RequirePulumiCliOptions = {}): RequiredPulumiCli {
  const cli = locatePulumi();
  const missing = missingForPulumiCli(cli, options);
  if (missing === undefined) return { cli, missing, describe };
  const message = options.purpose === undefined ? missing : `${options.purpose}: ${missing}`;
  if (process.env.CI) {
    test(`needs: ${message}`, () => {
      throw new Error(message);
    });
  } else {
    console.warn(`Skipping: ${message}`);
  }
  return { cli, missing, describe: describe.skip };
}
