/** The commands preflight prints are pasted into a shell: each quoted value must come back whole. */
import { execFileSync } from "node:child_process";
import { shellQuote } from "../../../provider/cli/state/pending-report";

test.each([
  "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/voiceplatform:SipCarrier::trunk-1",
  "it's $HOME and `date`",
  "''",
  "a b\tc\nd",
  "plain-name_1.2",
])("%j survives a paste into sh", (value) => {
  const pasted = execFileSync("sh", ["-c", `printf %s ${shellQuote(value)}`], { encoding: "utf8" });
  expect(pasted).toBe(value);
});

test("a value that needs no quotes is printed as it is", () => {
  expect(shellQuote("plain-name_1.2")).toBe("plain-name_1.2");
});
