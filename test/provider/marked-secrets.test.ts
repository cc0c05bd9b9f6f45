/**
 * A value the user marked secret on an input the package does not call secret (`registerUsername:
 * pulumi.secret(...)`) is kept out of every message, as the package's own secrets are. The
 * dynamic front end learns the names from the class's hidden `__resource` input (the engine strips
 * the markers before a dynamic provider sees them); the plugin from the markers themselves
 * (test/plugin/plugin-process.test.ts). Here the runtime's handlers run in process against a
 * platform that echoes every request in its errors.
 */
import * as runtime from "../../provider/runtime";
import { resetProcessState } from "../../provider/settings/process-state";
import { startEchoServer, type EchoServer } from "../reliability/echo-server";
import { carrierInputs, gateway } from "../support/builders";
import { setStackConfig } from "./emulator-harness";
import { recordSaid } from "../support/said";

const urn = "urn:pulumi:test::marked::pulumi-nodejs:dynamic/voiceplatform:SipCarrier::trunk";
const markedUser = "Marked-User-7781";
const withFacts = (inputs: Record<string, unknown>, markedSecret?: string[]) => ({
  ...inputs,
  __resource: { urn, ...(markedSecret ? { markedSecret } : {}) },
});

let echo: EchoServer;
let said: string[];
beforeAll(async () => {
  echo = await startEchoServer();
});
afterAll(() => echo.close());
beforeEach(() => {
  setStackConfig({ apiKey: "echo-key-for-marked-secrets", baseUrl: echo.url("json-message") });
  said = recordSaid();
});
afterEach(async () => {
  jest.restoreAllMocks();
  await resetProcessState();
});

const createError = (inputs: Record<string, unknown>) =>
  runtime.SipCarrier.create(inputs).then(
    () => {
      throw new Error("the echoing platform accepted a create");
    },
    (error: Error) => error,
  );

test("unmarked, the echo quotes the username (what the marked cases below must hide)", async () => {
  const error = await createError(withFacts(carrierInputs({ registerUsername: markedUser })));
  expect(error.message).toContain(markedUser);
});

test("marked, a platform error that echoes the request never quotes it, in any case", async () => {
  const error = await createError(
    withFacts(carrierInputs({ registerUsername: markedUser }), ["registerUsername"]),
  );
  expect(error.message).toContain("main-trunk");
  expect(error.message.toLowerCase()).not.toContain(markedUser.toLowerCase());
  expect(said.join("\n").toLowerCase()).not.toContain(markedUser.toLowerCase());
});

test("marked and too short to find in a text, the platform's answer is withheld, naming the input", async () => {
  const error = await createError(
    withFacts(carrierInputs({ registerUsername: "q7z" }), ["registerUsername"]),
  );
  expect(error.message).toContain("registerUsername (marked secret)");
  expect(error.message).not.toContain("q7z");
});

test("marked, check shows [secret] in a failure and a warning blanks the value", async () => {
  const name = "Marked Trunk Name 5521";
  const { failures } = await runtime.SipCarrier.check(
    {},
    withFacts(carrierInputs({ name, gateways: [gateway({ ipv4: "Marked-Gateway-999" })] }), [
      "name",
      "gateways",
    ]),
  );
  // The warning about registration names the carrier by its name: marked, it is blanked.
  await runtime.SipCarrier.check(
    {},
    withFacts(carrierInputs({ name, registerPassword: undefined }), ["name"]),
  );
  const shown = `${JSON.stringify(failures)}\n${said.join("\n")}`;
  expect(failures.length).toBeGreaterThan(0);
  expect(JSON.stringify(failures)).toContain("gateways");
  expect(JSON.stringify(failures)).toContain("[secret]");
  expect(said.join("\n")).toContain('SipCarrier "[secret]"');
  expect(shown.toLowerCase()).not.toContain(name.toLowerCase());
  expect(shown.toLowerCase()).not.toContain("marked-gateway-999");
});
