/**
 * The release's `pluginDownloadURL`: every SDK of the release carries it, and the engine runs
 * whatever it downloads from there. So it must be https; plain http only on this machine's
 * loopback (a local test server), where nothing crosses a network. It may hold the variables the
 * engine fills in (`${VERSION}`, `${OS}`, `${ARCH}`, `${NAME}`), so it is kept and shown as typed:
 * a parsed URL's `href` or `pathname` spells `${VERSION}` as `$%7BVERSION%7D`.
 */
import { ReleaseInputError } from "./errors";

/** Host names (as URL.hostname spells them) that plain http may use. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** A parsed URL's path with the engine's variables as typed (the parser percent-encodes braces). */
function pathAsTyped(url: URL): string {
  return url.pathname.replace(/\$%7B(NAME|VERSION|OS|ARCH)%7D/g, "${$1}");
}

/**
 * Throws, naming the option and the fix, unless `value` is a URL the engine may fetch plugins
 * from; returns `value` as given, what the SDKs must carry.
 */
export function checkDownloadUrl(value: string): string {
  const example = "give one such as https://example.com/voiceplatform/releases/";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not echoed: an unparsed value may hold a password.
    throw new ReleaseInputError(
      "--plugin-download-url",
      `--plugin-download-url is not a URL (no scheme such as https://): ${example}`,
    );
  }
  // Shown only as origin and path from here on: a user name or password must never be echoed.
  const shown = `${url.protocol}//${url.host}${pathAsTyped(url)}`;
  if (url.username !== "" || url.password !== "") {
    throw new ReleaseInputError(
      "--plugin-download-url",
      `--plugin-download-url ${shown} carries a user name or password: every SDK of the ` +
        `release would publish it. Serve the archives without credentials in the URL.`,
    );
  }
  if (url.search !== "" || url.hash !== "") {
    throw new ReleaseInputError(
      "--plugin-download-url",
      `--plugin-download-url ${shown} has a query or fragment (not shown: it may hold a token): ` +
        `the engine appends /<archive name> to the whole URL, so neither can work, and every ` +
        `SDK would publish them. Give the folder's URL alone.`,
    );
  }
  if (url.protocol === "https:") return value;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return value;
  if (url.protocol === "http:") {
    throw new ReleaseInputError(
      "--plugin-download-url",
      `--plugin-download-url ${shown} is plain http on ${url.hostname}: the engine would run ` +
        `whatever anyone on the way sends. Use https (plain http is accepted only on ` +
        `127.0.0.1, [::1] and localhost); ${example}`,
    );
  }
  throw new ReleaseInputError(
    "--plugin-download-url",
    `--plugin-download-url is not an https URL (${url.protocol} given): ${example}`,
  );
}
