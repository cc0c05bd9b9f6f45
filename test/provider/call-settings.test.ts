/**
 * A call reads the settings once, however many attempts and messages it makes: http-client's
 * callApi reads them into one value that every attempt and every message of the call uses.
 */
import { z } from "zod";
import * as config from "../../provider/settings/config";
import { callApi } from "../../provider/platform/http-client";
import { ApiResponseError } from "../../provider/platform/errors";
import { SipCarrierInputs, toCarrierBody } from "../../provider/resources/sip-carrier";
import { carrierInputs } from "../support/builders";
import { useEmulator } from "./emulator-harness";
import { callContext } from "../support/call-context";

const context = useEmulator();

afterEach(() => jest.restoreAllMocks());

function createCarrier(answer?: { schema: z.ZodType; problem: () => string }) {
  return callApi(
    {
      operation: 'create SIP carrier "main-trunk"',
      method: "POST",
      origin: "api",
      path: "/organization/sip",
      json: toCarrierBody(SipCarrierInputs.parse(carrierInputs())),
      idempotent: false,
      ...(answer && { answer }),
    },
    callContext(),
  );
}

async function statuses(): Promise<string[]> {
  return (await context.emulator.requests()).map((r) => `${r.method} ${r.path} ${r.status}`);
}

test("a call tried again reads the settings once for both attempts", async () => {
  await context.emulator.addFault({
    method: "POST",
    path: "/organization/sip",
    times: 1,
    action: { kind: "status", status: 429, retryAfterSeconds: 0 },
  });
  const reads = jest.spyOn(config, "readSettings");
  const response = await createCarrier();
  expect(response.status).toBe(201);
  expect(await statuses()).toEqual(["POST /organization/sip 429", "POST /organization/sip 201"]);
  expect(reads).toHaveBeenCalledTimes(1);
});

test("a success answer of another shape reads the settings once, its message included", async () => {
  const reads = jest.spyOn(config, "readSettings");
  const failure = await createCarrier({
    schema: z.object({ carrierNumber: z.string() }),
    problem: () => "the answer carries no carrier number",
  }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ApiResponseError);
  expect((failure as Error).message).toMatch(
    /^create SIP carrier "main-trunk" failed: 201 Created: the answer carries no carrier number \(POST http:\/\/127\.0\.0\.1:\d+\/organization\/sip, request id req_\w+\)$/,
  );
  expect(await statuses()).toEqual(["POST /organization/sip 201"]);
  expect(reads).toHaveBeenCalledTimes(1);
});
