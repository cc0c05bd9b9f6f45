import { pathSegmentProblem } from "../../provider/platform/path-segment";
import { cappedRetryAfter, defaultRetryLimits } from "../../provider/platform/retry-policy";
import { readSettings } from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";
import {
  authSchemeProblem,
  baseUrlProblem,
  controlCharacterProblem,
  countProblem,
  settingBounds,
} from "../../provider/settings/setting-rules";
import { processSettings } from "../support/call-context";

afterEach(() => resetProcessState());

describe.each(Object.entries(settingBounds))("%s", (name, { min, max, whole }) => {
  const setting = name as keyof typeof settingBounds;

  test(`takes ${min} and ${max}, refuses what lies just outside`, () => {
    expect(countProblem(setting, min)).toBeUndefined();
    expect(countProblem(setting, max)).toBeUndefined();
    expect(countProblem(setting, min - 1)).toMatch(new RegExp(`from ${min} to ${max}`));
    expect(countProblem(setting, max + 1)).toMatch(new RegExp(`from ${min} to ${max}`));
    expect(countProblem(setting, Number.NaN)).toBeDefined();
    expect(countProblem(setting, Number.POSITIVE_INFINITY)).toBeDefined();
    if (whole) expect(countProblem(setting, min + 0.5)).toMatch(/whole number/);
    else expect(countProblem(setting, min + 0.5)).toBeUndefined();
  });
});

describe("base URLs", () => {
  test.each([
    "https://api.example.com",
    "https://api.example.com/v2/",
    "http://127.0.0.1:4010",
    "http://127.8.9.10",
    "http://localhost:8080/base",
    "http://[::1]:4010",
  ])("%s is accepted", (value) => {
    expect(baseUrlProblem(value)).toBeUndefined();
  });

  test.each([
    ["api.example.com", /absolute https URL/],
    ["ftp://api.example.com", /absolute https URL/],
    ["http://api.example.com", /plain http is accepted only for a loopback address/],
    ["http://10.0.0.1", /plain http is accepted only for a loopback address/],
    ["http://localhost.example.com", /plain http is accepted only for a loopback address/],
    ["https://user:pass@api.example.com", /user name or password/],
    ["https://api.example.com/?key=1", /must not hold a query/],
    ["https://api.example.com/?", /must not hold a query/],
    ["https://api.example.com/#top", /must not hold a fragment/],
  ])("%s is refused: %s", (value, problem) => {
    expect(baseUrlProblem(value)).toMatch(problem);
  });
});

test("header-bound text: no control characters; the scheme one word", () => {
  expect(controlCharacterProblem("key-123")).toBeUndefined();
  expect(controlCharacterProblem("key\r\nX-Injected: 1")).toMatch(/control characters/);
  expect(controlCharacterProblem("key\t")).toMatch(/control characters/);
  expect(authSchemeProblem("Bearer")).toBeUndefined();
  expect(authSchemeProblem("Bearer token")).toMatch(/one word/);
});

test("ids that would change a request's address are refused, encoded or not", () => {
  for (const id of ["abc", "65a1f0c2e4b0a1b2c3d4e5f6", "a.b", "...", "a/b"])
    expect(pathSegmentProblem(id)).toBeUndefined();
  for (const id of [".", "..", "%2e%2e", "%2E", "", "a\u0000b"])
    expect(pathSegmentProblem(id)).toBeDefined();
});

test("a Retry-After is never waited longer than the configured maximum", () => {
  expect(cappedRetryAfter(5_000)).toBe(5_000);
  expect(cappedRetryAfter(10 ** 12)).toBe(defaultRetryLimits.maxRetryAfterMs);
  expect(cappedRetryAfter(-1)).toBe(0);
});

describe("readSettings applies the same rules to stack config and environment", () => {
  test("an out-of-range count names the setting, the value and the bounds", () => {
    expect(() => readSettings(processSettings(), { VOICEPLATFORM_MAX_RETRIES: "11" })).toThrow(
      /voiceplatform:maxRetries \(or VOICEPLATFORM_MAX_RETRIES\) is "11".*whole number from 0 to 10/,
    );
    expect(() => readSettings(processSettings(), { VOICEPLATFORM_TIMEOUT_SECONDS: "601" })).toThrow(
      /from 1 to 600/,
    );
  });

  test("a key with a line break is refused without showing the key", () => {
    let message = "";
    try {
      readSettings(processSettings(), { VOICEPLATFORM_API_KEY: "secret-key\r\nX-Injected: 1" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("voiceplatform:apiKey (or VOICEPLATFORM_API_KEY)");
    expect(message).toContain("control characters");
    expect(message).toContain("line breaks or tabs");
    expect(message).not.toContain("secret-key");
    expect(message).not.toContain("X-Injected");
  });

  test("a plain-http base URL that is not loopback is refused", () => {
    expect(() =>
      readSettings(processSettings(), { VOICEPLATFORM_BASE_URL: "http://api.example.com" }),
    ).toThrow(
      /voiceplatform:baseUrl \(or VOICEPLATFORM_BASE_URL\) is "http:\/\/api.example.com", which must use https/,
    );
  });
});
