/**
 * Which of Pulumi's language hosts a CLI build still needs (test/pulumi-cli/host-languages.sh,
 * sourced by install.sh): `npm run demo` builds the Node.js host alone, and a later full
 * `npm run pulumi:install` must then build the other three rather than find the build complete.
 * The functions run in bash as install.sh runs them; no Go involved.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const REPO_ROOT = join(__dirname, "..", "..");
const HOSTS = join(REPO_ROOT, "test", "pulumi-cli", "host-languages.sh");
const INSTALL = join(REPO_ROOT, "test", "pulumi-cli", "install.sh");
const ALL = "nodejs python go yaml";
const SOURCES = "sha256:0123456789abcdef";

/** One of host-languages.sh's functions called with `args`: its output line, or its error. */
function call(fn: string, ...args: string[]): { out: string; err: string; status: number | null } {
  const result = spawnSync("bash", ["-c", `source "$0"; ${fn} "$@"`, HOSTS, ...args], {
    encoding: "utf8",
  });
  return { out: result.stdout.trim(), err: result.stderr.trim(), status: result.status };
}

test("after the demo's build (Node.js alone), a full install builds the other three hosts", () => {
  expect(call("hosts_to_build", `shared (nodejs) ${SOURCES}`, SOURCES, ALL).out).toBe(
    "python go yaml",
  );
  expect(call("hosts_after", `shared (nodejs) ${SOURCES}`, SOURCES, "python go yaml").out).toBe(
    ALL,
  );
});

test("a full build already holds what the demo needs", () => {
  const result = call("hosts_to_build", `shared (${ALL}) ${SOURCES}`, SOURCES, "nodejs");
  expect(result).toEqual({ out: "", err: "", status: 0 });
  expect(call("hosts_to_build", `shared (nodejs) ${SOURCES}`, SOURCES, "nodejs").out).toBe("");
});

test("hosts built from other sources, or not from the shared sources, are all built again", () => {
  expect(call("hosts_to_build", `shared (${ALL}) sha256:ffff`, SOURCES, "nodejs").out).toBe(
    "nodejs",
  );
  expect(call("hosts_after", `shared (${ALL}) sha256:ffff`, SOURCES, "nodejs").out).toBe("nodejs");
  const proxyHost = "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3@v3.276.0";
  expect(call("hosts_to_build", proxyHost, SOURCES, ALL).out).toBe(ALL);
  expect(call("hosts_to_build", "", SOURCES, ALL).out).toBe(ALL);
});

test("--languages takes commas or spaces in any order, and refuses a language it cannot build", () => {
  expect(call("host_languages", "yaml,nodejs").out).toBe("nodejs yaml");
  expect(call("host_languages", "go python nodejs").out).toBe("nodejs python go");
  expect(call("host_languages", "nodejs,ruby")).toEqual({
    out: "",
    err: "unknown language host 'ruby' (nodejs, python, go, yaml)",
    status: 1,
  });
  const install = spawnSync("bash", [INSTALL, "--languages=ruby", "--print-version"], {
    encoding: "utf8",
  });
  expect(install.status).toBe(1);
  expect(install.stderr).toContain("unknown language host 'ruby' (nodejs, python, go, yaml)");
  expect(install.stderr).toContain("--languages: see above");
});
