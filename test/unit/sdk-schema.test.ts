/**
 * provider/sdk/schema.json, the file the SDKs are generated from, is the plugin's schema today.
 * The SDKs themselves are regenerated and compared in the engine tier (test/languages).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { schemaText } from "../../provider/codegen/generate-sdks";

test("provider/sdk/schema.json is the plugin's schema", () => {
  const committed = readFileSync(join(__dirname, "../../provider/sdk/schema.json"), "utf8");
  const fix = "Run `npm run sdk:generate` and commit provider/sdk.";
  expect({ matches: committed === schemaText(), fix }).toEqual({ matches: true, fix });
});
