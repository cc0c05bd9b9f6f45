/**
 * Where a release may be published: the registry URLs, and a placeholder address only locally.
 * Measured behaviour: docs/development.md#publishing
 */
import { PublishRefusal, ReleaseInputError } from "./errors";

/** Host names (as URL.hostname spells them) that are this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Throws, naming the option and the fix, unless `value` is a registry URL publishing may use. */
export function checkRegistryUrl(option: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not echoed: an unparsed value may hold a password.
    throw new ReleaseInputError(
      option,
      `${option} is not a URL (no scheme such as https://): give the registry's URL.`,
    );
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.username !== "" || url.password !== "") {
    throw new ReleaseInputError(
      option,
      `${option} ${shown} carries a user name or password, which tools print: give the URL ` +
        "alone and the credentials in the environment (see docs/development.md, Publishing).",
    );
  }
  if (url.search !== "" || url.hash !== "") {
    throw new ReleaseInputError(
      option,
      `${option} ${shown} has a query or fragment (not shown: it may hold a token): give the ` +
        "registry's URL alone.",
    );
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return url;
  throw new ReleaseInputError(
    option,
    `${option} ${shown} is not https: credentials and packages would cross the network in the ` +
      "clear. Use https (plain http is accepted only on this machine's loopback, for stand-ins).",
  );
}

/** What a release says of its address. */
export interface AddressOfRelease {
  /** The Go SDK's module path. */
  goModulePath: string;
  /** What every SDK names; undefined: none. */
  pluginDownloadURL: string | undefined;
  /** The public address, when release.json says it is the placeholder. */
  placeholderAddress?: string | undefined;
}

/** Domains reserved for documentation, tests and this machine (RFC 2606, RFC 6761). */
const RESERVED_DOMAIN = /(^|\.)(example\.(com|net|org)|example|invalid|test|localhost)$/i;

/**
 * Why the release's address is a placeholder, or undefined when it is a public one.
 */
export function placeholderAddress(release: AddressOfRelease): string | undefined {
  const reasons: string[] = [];
  if (release.placeholderAddress !== undefined) {
    reasons.push(`its public address ${release.placeholderAddress} is the placeholder`);
  }
  const domain = release.goModulePath.split("/")[0]!;
  if (!domain.includes(".")) {
    reasons.push(`its Go module path ${release.goModulePath} starts with no domain`);
  } else if (RESERVED_DOMAIN.test(domain) || isLoopbackHost(domain)) {
    reasons.push(`its Go module path ${release.goModulePath} is on a reserved domain`);
  }
  if (release.pluginDownloadURL === undefined) {
    reasons.push("its SDKs name no pluginDownloadURL (a --dry-run release)");
  } else {
    const host = new URL(release.pluginDownloadURL).hostname;
    if (isLoopbackHost(host) || RESERVED_DOMAIN.test(host)) {
      reasons.push(`its pluginDownloadURL is on ${host}`);
    }
  }
  return reasons.length === 0 ? undefined : reasons.join(", and ");
}

/** The registries a publish run names, by option. */
export type RegistryTargets = Record<string, URL | undefined>;

/**
 * Throws unless a release with this address may go to these registries: a placeholder address
 * only to loopback stand-ins. Folders are this machine's and always allowed.
 */
export function checkAddressForTargets(
  release: AddressOfRelease,
  registries: RegistryTargets,
): void {
  const placeholder = placeholderAddress(release);
  if (placeholder === undefined) return;
  const remote = Object.entries(registries).filter(
    ([, url]) => url !== undefined && !isLoopbackHost(url.hostname),
  );
  if (remote.length === 0) return;
  throw new PublishRefusal(
    "release.json",
    `this release has a placeholder address (${placeholder}): users who install it from ` +
      `${remote.map(([option, url]) => `${option} ${url!.origin}`).join(" and ")} would ` +
      "fetch the plugin and the Go module from nowhere, or from whoever holds that name. " +
      "Build the release with the project's public address (--plugin-download-url, " +
      "--go-module-path), or publish it only to loopback stand-ins and folders.",
  );
}
