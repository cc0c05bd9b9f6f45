import {
  ApiConnectionError,
  ApiError,
  ApiResponseError,
  ApiStatusError,
  ApiTimeoutError,
  apiErrorFor,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  extractApiMessage,
  InputError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from "../../provider/platform/errors";
import { StackCommandError } from "../../provider/cli/errors";
import { ConfigurationError, VoicePlatformError } from "../../provider/settings/errors";
import {
  redactBody,
  redactSecrets,
  rememberSecret,
  rememberSecretWireFields,
} from "../../provider/platform/redaction";
import { resources } from "../../provider/resources";

const base = {
  operation: 'create SIP carrier "main-trunk"',
  method: "POST",
  url: "http://127.0.0.1:4010/organization/sip",
};

// As serving any resource does before its first call (provider/core/served-resource).
beforeAll(() => rememberSecretWireFields(resources.flatMap((r) => r.secretWireFields)));

describe("ApiError", () => {
  it("names the operation, status, the API's message, the request and the fix", () => {
    const error = new ApiError({
      ...base,
      status: 403,
      requestId: "req_1",
      body: JSON.stringify({ error: { message: "sub-organization sub_x is not yours" } }),
      hint: 'Check that sub-organization "sub_x" belongs to the organization that owns the API key',
    });
    expect(error.message).toContain('create SIP carrier "main-trunk" failed: 403 Forbidden');
    expect(error.message).toContain("sub-organization sub_x is not yours");
    expect(error.message).toContain(
      "(POST http://127.0.0.1:4010/organization/sip, request id req_1)",
    );
    expect(error.message).toMatch(/\. Check that sub-organization "sub_x" belongs to .*API key$/);
    expect(error).toMatchObject({
      status: 403,
      requestId: "req_1",
      method: "POST",
      apiMessage: "sub-organization sub_x is not yours",
    });
    expect(error.name).toBe("ApiError");
  });

  it("describes a missing answer by its cause", () => {
    const cause = new Error("connect ECONNREFUSED");
    const error = new ApiError({ ...base, problem: "connection failed (ECONNREFUSED)", cause });
    expect(error.message).toContain('create SIP carrier "main-trunk" failed');
    expect(error.message).toContain("connection failed (ECONNREFUSED)");
    expect(error.message).toContain("(POST http://127.0.0.1:4010/organization/sip)");
    expect(error.status).toBeUndefined();
    expect(error.cause).toBe(cause);
  });

  it("says how many attempts were made after the platform's own message", () => {
    const error = new ApiError({
      ...base,
      method: "PUT",
      status: 500,
      body: JSON.stringify({ message: "boom" }),
      problem: "still failing after 6 attempts",
      hint: "Run `pulumi up` again later",
    });
    expect(error.message).toContain("500 Internal Server Error: boom");
    expect(error.message).toContain("still failing after 6 attempts");
    expect(error.message).toContain("(PUT http://127.0.0.1:4010/organization/sip)");
    expect(error.message).toMatch(/Run `pulumi up` again later$/);
  });

  it("redacts secrets from the message and the body, and truncates the body", () => {
    rememberSecret("key-that-must-not-leak");
    const error = new ApiError({
      ...base,
      status: 400,
      body: JSON.stringify({
        message: "bad key key-that-must-not-leak",
        echo: { register_password: "hunter2-password", padding: "x".repeat(5000) },
      }),
    });
    expect(error.message).not.toContain("key-that-must-not-leak");
    expect(error.message).toContain("bad key [redacted]");
    expect(error.body).not.toContain("hunter2-password");
    expect(error.body!.length).toBeLessThan(2100);
    expect(error.body).toMatch(/truncated\)$/);
  });
});

describe("apiErrorFor: one factory picks the class a program catches", () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [418, ApiStatusError],
  ])("status %i is a %p", (status, StatusClass) => {
    const error = apiErrorFor({ kind: "status", status }, { ...base, status });
    expect(error).toBeInstanceOf(StatusClass);
    expect(error).toBeInstanceOf(ApiStatusError);
    expect(error).toBeInstanceOf(VoicePlatformError);
    expect(error.name).toBe(StatusClass.name);
  });

  it("a deadline is a kind of connection error, as a missing answer is", () => {
    const timeout = apiErrorFor({ kind: "timeout" }, base);
    expect(timeout).toBeInstanceOf(ApiTimeoutError);
    expect(timeout).toBeInstanceOf(ApiConnectionError);
    expect(timeout).toMatchObject({ name: "ApiTimeoutError", code: "ETIMEDOUT" });
    const refused = apiErrorFor({ kind: "network", code: "ECONNREFUSED" }, base);
    expect(refused).toMatchObject({ name: "ApiConnectionError", code: "ECONNREFUSED" });
    expect(refused).not.toBeInstanceOf(ApiTimeoutError);
    expect(apiErrorFor({ kind: "unreadable" }, base)).toBeInstanceOf(ApiResponseError);
  });

  it("every class of the hierarchy names itself", () => {
    expect(new VoicePlatformError("x").name).toBe("VoicePlatformError");
    expect(ConfigurationError.name).toBe("ConfigurationError");
    expect(new ApiError(base).name).toBe("ApiError");
    for (const error of [new InputError("x"), new StackCommandError("x")]) {
      expect(error).toBeInstanceOf(VoicePlatformError);
      expect(error.name).toBe(error.constructor.name);
    }
  });

  it("status texts come from Node's table", () => {
    expect(apiErrorFor({ kind: "status", status: 422 }, { ...base, status: 422 }).message).toMatch(
      "422 Unprocessable Entity",
    );
  });
});

describe("extractApiMessage", () => {
  it.each([
    [{ error: { message: "nested" } }, "nested"],
    [{ message: "top" }, "top"],
    [{ error: "plain" }, "plain"],
    [{ detail: "detail" }, "detail"],
    [{ errors: [{ message: "first" }] }, "first"],
  ])("finds the message in %j", (body, expected) => {
    expect(extractApiMessage(JSON.stringify(body))).toBe(expected);
  });

  it("falls back to the text of a non-JSON body, and to nothing for an empty one", () => {
    expect(extractApiMessage("<html>Bad   gateway</html>")).toBe("<html>Bad gateway</html>");
    expect(extractApiMessage("")).toBeUndefined();
    expect(extractApiMessage("{}")).toBeUndefined();
  });
});

describe("redaction", () => {
  it("blanks register_password and advanced webhook header and parameter values anywhere in a body", () => {
    expect(
      redactBody({
        register_password: "p",
        advancedWebhook: {
          headers: [{ name: "Authorization", value: "Bearer abc" }],
          parameters: [{ name: "token", value: "t0k" }],
          url: "https://x",
        },
      }),
    ).toEqual({
      register_password: "[redacted]",
      advancedWebhook: {
        headers: [{ name: "Authorization", value: "[redacted]" }],
        parameters: [{ name: "token", value: "[redacted]" }],
        url: "https://x",
      },
    });
  });

  it("blanks a secret of 4 characters or more inside other words too: over-redaction, never a leak", () => {
    rememberSecret("tok3n");
    // Exact: what is blanked and what stays, character for character, is the contract here.
    expect(redactSecrets("sent tok3n; tok3ns and myTOK3N go, as does tok3n_x")).toBe(
      "sent [redacted]; [redacted]s and my[redacted] go, as does [redacted]_x",
    );
    expect(redactSecrets("https://h.example/?t=tok3n&x=1")).toBe(
      "https://h.example/?t=[redacted]&x=1",
    );
  });

  it("blanks a long secret wherever it appears, inside other text too", () => {
    rememberSecret("long-secret-value-42");
    expect(redactSecrets("xlong-secret-value-42y")).toBe("x[redacted]y");
  });

  it("does not search for secrets under 4 characters (the structural rule keeps them out)", () => {
    rememberSecret("ab");
    expect(redactSecrets("about tabs")).toBe("about tabs");
  });
});
