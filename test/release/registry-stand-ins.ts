/**
 * Local stand-ins of the registries users install from, started by a test on loopback:
 *
 * - npm: verdaccio (test/tools/install.sh), with one account that may publish. The release's
 *   packages are served from its own storage only; every other package comes through it from
 *   the registry npm is configured with here (`npm config get registry`), as a company's proxy
 *   registry serves them.
 * - PyPI: pypiserver with a password file (an uploader account); a package it does not hold is
 *   redirected to the index pip is configured with here (pypiserver's default otherwise).
 * - Go: a GOPROXY folder (nothing to start), put before the proxy Go is configured with here.
 *
 * Each records what was asked of it, so a test can tell that an install came from the stand-in.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "../support/free-port";
import { locateTool } from "../support/test-tools";

export interface RunningStandIn {
  /** The registry's URL, ending in "/". */
  url: string;
  /** Every request line the stand-in logged so far (`GET /path`). */
  requests(): string[];
  close(): Promise<void>;
}

export interface Credentials {
  user: string;
  secret: string;
}

/** Waits until `url` answers, or the process ends, or two minutes pass. */
async function answering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the stand-in at ${url} exited with ${child.exitCode}:\n${output()}`);
    }
    const ok = await fetch(url).then(
      (response) => response.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the stand-in at ${url} did not answer within two minutes:\n${output()}`);
}

/** Starts `file args`, keeping what it prints. */
function started(file: string, args: string[], cwd: string) {
  const child = spawn(file, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { child, output: () => output, close };
}

function located(tool: "verdaccio" | "pypiserver"): string {
  const file = locateTool(tool);
  if (file === undefined)
    throw new Error(`${tool} is not installed: npm run tools:install -- ${tool}`);
  return file;
}

/** The npm registry this machine's npm uses: verdaccio's uplink for everything but the release. */
function upstreamNpmRegistry(): string {
  return execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
}

/**
 * verdaccio on a free loopback port, storage under `dir`, an account `credentials.user` made
 * (its token is returned as `token`). `ownPackages` are never asked of the upstream registry.
 */
export async function startVerdaccio(
  dir: string,
  credentials: Credentials,
  ownPackages: readonly string[],
): Promise<RunningStandIn & { token: string }> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const own = ownPackages
    .map((name) => `  '${name}':\n    access: $all\n    publish: $authenticated\n`)
    .join("");
  await writeFile(
    join(dir, "config.yaml"),
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "    max_users: 1",
      "uplinks:",
      "  upstream:",
      `    url: ${upstreamNpmRegistry()}`,
      "    timeout: 60s",
      "packages:",
      own.trimEnd(),
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "    proxy: upstream",
      // The plugin's packages carry single executables of ~40 MB.
      "max_body_size: 300mb",
      "web:",
      "  enable: false",
      "log: { type: stdout, format: json, level: http }",
      "",
    ].join("\n"),
  );
  const url = `http://127.0.0.1:${port}/`;
  const server = started(
    located("verdaccio"),
    ["--config", join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`],
    dir,
  );
  await answering(`${url}-/ping`, server.child, server.output);
  const response = await fetch(`${url}-/user/org.couchdb.user:${credentials.user}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: credentials.user, password: credentials.secret }),
  });
  const { token } = (await response.json()) as { token?: string };
  if (token === undefined) throw new Error(`verdaccio made no account: ${response.status}`);
  const requests = () =>
    server
      .output()
      .split("\n")
      .flatMap((line) => /requested '([A-Z]+ [^']+)'/.exec(line)?.[1] ?? []);
  return { url, token, requests, close: server.close };
}

/** The index pip uses here, if it is configured; pypiserver's own default otherwise. */
function upstreamPythonIndex(): string | undefined {
  if (process.env.PIP_INDEX_URL) return process.env.PIP_INDEX_URL;
  try {
    const configured = execFileSync("python3", ["-m", "pip", "config", "get", "global.index-url"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return configured === "" ? undefined : configured;
  } catch {
    return undefined;
  }
}

/**
 * pypiserver on a free loopback port serving `dir/packages`, uploads allowed to the account
 * `credentials` only (an htpasswd file with its SHA-1 entry, which passlib reads).
 */
export async function startPypiserver(
  dir: string,
  credentials: Credentials,
): Promise<RunningStandIn> {
  await mkdir(join(dir, "packages"), { recursive: true });
  const entry = createHash("sha1").update(credentials.secret).digest("base64");
  await writeFile(join(dir, "htpasswd"), `${credentials.user}:{SHA}${entry}\n`);
  const port = await freePort();
  const upstream = upstreamPythonIndex();
  const server = started(
    located("pypiserver"),
    [
      "run",
      "-v",
      "--log-req-frmt",
      "request: %(REQUEST_METHOD)s %(PATH_INFO)s",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--passwords",
      join(dir, "htpasswd"),
      "--authenticate",
      "update",
      ...(upstream === undefined ? [] : ["--fallback-url", upstream]),
      join(dir, "packages"),
    ],
    dir,
  );
  const url = `http://127.0.0.1:${port}/`;
  await answering(`${url}health`, server.child, server.output);
  const requests = () =>
    server
      .output()
      .split("\n")
      .flatMap((line) => /request: ([A-Z]+ \S+)/.exec(line)?.[1] ?? []);
  return { url, requests, close: server.close };
}

/**
 * GOPROXY for programs: the stand-in folder first; then this machine's module cache read as a
 * proxy (its download folder has a proxy's layout), so Pulumi's SDK and its dependencies need no
 * network when Go has fetched them before; then the proxy Go uses here. The programs run with a
 * module cache of their own: the machine's never holds what the test published (a rebuilt release
 * of the same version would otherwise be read from there, stale).
 */
export function goProxyChain(folder: string): string {
  const go = (name: string) => execFileSync("go", ["env", name], { encoding: "utf8" }).trim();
  const machineCache = join(go("GOMODCACHE"), "cache", "download");
  const configured = go("GOPROXY");
  return [pathToFileURL(folder).href, pathToFileURL(machineCache).href]
    .concat(configured === "" ? [] : [configured])
    .join(",");
}
