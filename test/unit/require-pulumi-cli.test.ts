/**
 * What requirePulumiCli's guard says is missing: the CLI, a language host beside it, another tool.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { missingForPulumiCli, PULUMI_CLI_MISSING } from "../support/require-pulumi-cli";

let binDir: string;
// CI names the CLI it tests (PULUMI_CLI_VERSION), which changes the message for a missing CLI:
// these tests are of the plain message; pulumi-cli-version.test.ts covers the requested one.
const requestedVersion = process.env.PULUMI_CLI_VERSION;

beforeAll(() => {
  delete process.env.PULUMI_CLI_VERSION;
  binDir = mkdtempSync(join(tmpdir(), "require-pulumi-cli-"));
  writeFileSync(join(binDir, "pulumi"), "");
  writeFileSync(join(binDir, "pulumi-language-nodejs"), "");
});

afterAll(() => {
  rmSync(binDir, { recursive: true, force: true });
  if (requestedVersion !== undefined) process.env.PULUMI_CLI_VERSION = requestedVersion;
});

const cli = () => ({ binDir, pulumi: join(binDir, "pulumi"), version: "3.248.0" });

test("nothing is missing when the CLI and the hosts asked for are there", () => {
  expect(missingForPulumiCli(cli())).toBeUndefined();
  expect(missingForPulumiCli(cli(), { languageHosts: ["nodejs"] })).toBeUndefined();
});

test("a missing CLI, language host or other tool is named", () => {
  expect(missingForPulumiCli(undefined)).toBe(PULUMI_CLI_MISSING);
  const hostsMissing = missingForPulumiCli(cli(), { languageHosts: ["nodejs", "yaml", "go"] });
  expect(hostsMissing).toMatch(/^No pulumi-language-yaml, pulumi-language-go beside/);
  expect(hostsMissing).toContain("run `npm run pulumi:install`");
  expect(
    missingForPulumiCli(undefined, {
      languageHosts: ["yaml"],
      also: [
        { available: false, missing: "No PostgreSQL." },
        { available: true, missing: "never said" },
      ],
    }),
  ).toBe(`${PULUMI_CLI_MISSING} No PostgreSQL.`);
});
