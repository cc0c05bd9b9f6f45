/** `@pulumi/policy` as the repository pins it (package.json), for the tests that install the pack's dependency. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./packed-package";

export const POLICY_PACKAGE = `@pulumi/policy@${
  (
    JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    }
  ).devDependencies["@pulumi/policy"]
}`;
