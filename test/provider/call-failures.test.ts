/**
 * Failures around one platform call that must stay with that call and say what really happened:
 * a Retry-After longer than the provider waits fails that call only, and holds no other; a
 * request the HTTP client refuses before sending says that nothing was sent; the answer to a
 * call that carried a secret too short to be searched for is never shown.
 */
import * as runtime from "../../provider/runtime";
import { callApi } from "../../provider/platform/http-client";
import { ApiError, RateLimitError } from "../../provider/platform/errors";
import { sharedPacer } from "../../provider/platform/connection-pool";
import { processProviderStates } from "../../provider/settings/process-state";
import { ECHO_MARKER } from "../../provider/emulator/echo-fault";
import { advancedWebhook, carrierInputs, webhookInputs } from "../support/builders";
import { useEmulator } from "./emulator-harness";
import { callContext } from "../support/call-context";

const context = useEmulator();
const requests = () => context.emulator.requests();

async function checked(kind: "SipCarrier" | "CampaignWebhook", news: Record<string, unknown>) {
  const { inputs, failures } = await runtime[kind].check({}, news);
  expect(failures).toEqual([]);
  return inputs;
}

async function failure(work: () => Promise<unknown>): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("the call succeeded");
}

describe("a Retry-After longer than the provider waits", () => {
  it("fails that call at once, says to wait, and holds no later call", async () => {
    await context.emulator.addFault({
      method: "POST",
      path: "/organization/sip",
      times: 1,
      action: { kind: "status", status: 429, retryAfterSeconds: 3600 },
    });
    const inputs = await checked("SipCarrier", carrierInputs());
    const error = await failure(() => runtime.SipCarrier.create(inputs));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(
      /failed: 429 Too Many Requests: .*the platform asked to wait 3600 s before trying again \(Retry-After\), longer than the 60 s this provider waits .*\. The platform did not take the request: run `pulumi up` again once that time has passed$/,
    );
    expect(error.message).not.toMatch(/maxRetries|maxConcurrency|may have created/);
    // Nothing holds the next call: the pacer admits it without a wait.
    expect(sharedPacer(processProviderStates()).admit(Date.now())).toBeUndefined();
    const { id } = await runtime.SipCarrier.create(inputs);
    expect((await requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /organization/sip 429",
      "POST /organization/sip 201",
    ]);
    expect(id).toEqual(expect.any(String));
  });
});

describe("a request refused before it was sent", () => {
  it("says that nothing was sent, never that the platform may have created something", async () => {
    // check refuses this value; the HTTP client is the last line of defence.
    const error = await failure(() =>
      callApi(
        {
          operation: 'create SIP carrier "main-trunk"',
          method: "POST",
          origin: "api",
          path: "/organization/sip",
          json: { name: "main-trunk" },
          subOrganizationId: "org-1\r\nx-injected: 1",
          idempotent: false,
          unknownOutcomeHint: 'The platform may have created SIP carrier "main-trunk"',
        },
        callContext(),
      ),
    );
    expect(error.name).toBe("RequestNotSentError");
    expect(error.message).toMatch(
      /^create SIP carrier "main-trunk" failed: the request was refused before it was sent \(invalid x-sub-organization-id header\) \(POST .*\/organization\/sip\)\. Nothing was sent, so nothing was created or changed on the platform/,
    );
    expect(error.message).not.toMatch(/may have/);
    expect(await requests()).toEqual([]);
  });
});

describe("the answer to a call that carried a secret under 4 characters", () => {
  const echo = {
    kind: "echo" as const,
    status: 400,
    forms: [{ transforms: [], before: "", after: "" }],
  };

  it.each([
    [
      "a SIP password",
      "SipCarrier" as const,
      carrierInputs({ registerPassword: "pw3" }),
      "registerPassword",
    ],
    [
      "a webhook parameter",
      "CampaignWebhook" as const,
      webhookInputs({
        isAdvanced: true,
        advancedWebhook: advancedWebhook({ parameters: [{ name: "pin", value: "7" }] }),
      }),
      "advancedWebhook.parameters[].value",
    ],
  ])("is not shown (%s), and the error says why", async (_label, kind, news, field) => {
    for (const path of ["/organization/sip", "/campaigns/*/webhook/subscribe"])
      await context.emulator.addFault({ method: "POST", path, action: echo });
    const error = await failure(async () => runtime[kind].create(await checked(kind, news)));
    expect(error.message).toMatch(
      new RegExp(
        `failed: 400 Bad Request: the platform's answer is not shown, because the request carried ${field.replace(/[[\].]/g, "\\$&")}: a secret under 4 characters cannot be told apart from other text`,
      ),
    );
    expect(error.message).not.toContain(ECHO_MARKER);
    expect(error.body).toBeUndefined();
    expect(error.apiMessage).toBeUndefined();
    expect(error.requestId).toBeUndefined();
  });

  it("is shown, redacted, when every secret it carried has 4 characters or more", async () => {
    await context.emulator.addFault({
      method: "POST",
      path: "/organization/sip",
      action: echo,
    });
    const inputs = await checked("SipCarrier", carrierInputs({ registerPassword: "pw4x" }));
    const error = await failure(() => runtime.SipCarrier.create(inputs));
    expect(error.message).toContain(ECHO_MARKER);
    expect(error.message).toContain("[redacted]");
    expect(error.message.toLowerCase()).not.toContain("pw4x");
  });
});
