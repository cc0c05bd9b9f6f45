/**
 * What preflight asks of the `pulumi` CLI: each call is a CLI start (a tenth of a second or more on
 * a busy runner, for every stack of every CI job). A stand-in `pulumi` first on PATH records its
 * arguments and answers `stack export` and `whoami --json` for an empty stack on a file backend.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { preflight } from "../../../provider/cli/commands/preflight";

describe("preflight's CLI calls", () => {
  let root: string;
  let savedPath: string | undefined;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "voiceplatform-cli-calls-"));
    const backend = pathToFileURL(join(root, "backend")).href;
    const script = `#!/bin/sh
printf '%s\\n' "$*" >> '${join(root, "calls")}'
case "$1 $2" in
  "stack export") echo '{"version":3,"deployment":{"manifest":{},"resources":[]}}' ;;
  "whoami --json") echo '{"user":"someone","url":"${backend}"}' ;;
  *) echo "unexpected: $*" >&2; exit 1 ;;
esac
`;
    writeFileSync(join(root, "pulumi"), script);
    chmodSync(join(root, "pulumi"), 0o755);
    savedPath = process.env.PATH;
    process.env.PATH = `${root}${delimiter}${savedPath ?? ""}`;
  });

  afterEach(() => {
    process.env.PATH = savedPath;
    rmSync(root, { recursive: true, force: true });
  });

  test("the backend URL is asked once, the stack exported once", async () => {
    const result = await preflight({ stack: "dev" });
    expect(result.exitCode).toBe(0);
    const calls = readFileSync(join(root, "calls"), "utf8").trim().split("\n");
    expect(calls.map((call) => call.split(" --")[0]).sort()).toEqual(["stack export", "whoami"]);
  });
});
