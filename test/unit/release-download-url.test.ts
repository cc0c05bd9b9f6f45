/**
 * The release's pluginDownloadURL, which every SDK of the release carries and the engine fetches
 * executables from: https anywhere, plain http only on loopback, never credentials in it.
 */
import { checkDownloadUrl } from "../../provider/release/download-url";
import { ReleaseInputError } from "../../provider/release/errors";
import { thrownBy } from "../support/thrown";

describe("--plugin-download-url", () => {
  test.each([
    "https://example.com/voiceplatform/releases/",
    "https://downloads.example.com:8443/v0.1.0",
    "http://127.0.0.1:8080/",
    "http://[::1]:8080/plugins/",
    "http://localhost:4010/",
  ])("%s is accepted", (url) => {
    expect(checkDownloadUrl(url)).toBe(url);
  });

  test("the engine's ${VERSION} is kept as typed, in what the SDKs get and in every message", () => {
    const url = "https://example.com/voiceplatform/v${VERSION}/${OS}-${ARCH}/";
    expect(checkDownloadUrl(url)).toBe(url);
    expect(() => checkDownloadUrl("http://example.com/v${VERSION}/")).toThrow(
      "--plugin-download-url http://example.com/v${VERSION}/ is plain http on example.com",
    );
    expect(() => checkDownloadUrl("https://example.com/v${VERSION}/?token=x")).toThrow(
      "--plugin-download-url https://example.com/v${VERSION}/ has a query or fragment",
    );
  });

  test.each([
    ["http://example.com/releases/", "is plain http on example.com"],
    ["http://10.0.0.5/releases/", "is plain http on 10.0.0.5"],
    ["http://127.0.0.1.example.com/", "is plain http on 127.0.0.1.example.com"],
    ["ftp://example.com/releases/", "is not an https URL (ftp: given)"],
    ["github://api.github.com/owner/repo", "is not an https URL (github: given)"],
    ["example.com/releases", "is not a URL (no scheme such as https://)"],
  ])("%s is refused: %s", (url, said) => {
    expect(() => checkDownloadUrl(url)).toThrow(said);
    expect(() => checkDownloadUrl(url)).toThrow(/^--plugin-download-url /);
  });

  test.each(["deploy:hunter2@example.com/releases", "user:hunter2@@"])(
    "%s, a value that is no http(s) URL, is not echoed (it may hold a password)",
    (url) => {
      expect(() => checkDownloadUrl(url)).toThrow("--plugin-download-url is not");
      expect(() => checkDownloadUrl(url)).not.toThrow("hunter2");
    },
  );

  test("plain http names the hosts it is accepted on and the fix", () => {
    const thrown = thrownBy(() => checkDownloadUrl("http://example.com/"));
    expect(thrown).toBeInstanceOf(ReleaseInputError);
    expect((thrown as ReleaseInputError).input).toBe("--plugin-download-url");
    const { message } = thrown as ReleaseInputError;
    expect(message).toContain("--plugin-download-url http://example.com/ is plain http");
    expect(message).toContain("Use https");
    expect(message).toContain("127.0.0.1, [::1] and localhost");
  });

  test.each([
    "https://example.com/releases/?token=abc123secret",
    "https://example.com/r/#abc123secret",
  ])("%s: a query or fragment is refused, not echoed", (url) => {
    expect(() => checkDownloadUrl(url)).toThrow("--plugin-download-url https://example.com/r");
    expect(() => checkDownloadUrl(url)).toThrow("has a query or fragment");
    expect(() => checkDownloadUrl(url)).not.toThrow("abc123secret");
  });

  test("credentials in the URL are refused and never echoed", () => {
    let message = "";
    try {
      checkDownloadUrl("https://deploy:s3cr3t-pass@example.com/releases/");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("carries a user name or password");
    expect(message).toContain("https://example.com/releases/");
    expect(message).not.toContain("s3cr3t-pass");
    expect(message).not.toContain("deploy");
  });
});
