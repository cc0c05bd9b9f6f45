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
import { BackendReadError } from "../../../provider/cli/errors";

describe("preflight's CLI calls", () => {
  let root: string;
  let savedPath: string | undefined;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "voiceplatform-cli-calls-"));
    const backend = pathToFileURL(join(root, "backend")).href;
    const script = `#!/bin/sh
printf '%s\\n' "$*" >> '${join(root, "calls")}'
case "$1 $2" in
  "stack export")
    # VOICEPLATFORM_TEST_RACES: how many exports lose the race to create a new PostgreSQL table.
    n=$(cat '${join(root, "races")}' 2>/dev/null || echo 0)
    if [ "$n" -lt "\${VOICEPLATFORM_TEST_RACES:-0}" ]; then
      echo $((n + 1)) > '${join(root, "races")}'
      echo 'error: unable to open state database: failed to create table pulumi_state: pq: duplicate key value violates unique constraint "pg_type_typname_nsp_index" (23505)' >&2
      exit 1
    fi
    echo '{"version":3,"deployment":{"manifest":{},"resources":[]}}' ;;
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
    delete process.env.VOICEPLATFORM_TEST_RACES;
    process.env.PATH = savedPath;
    rmSync(root, { recursive: true, force: true });
  });

  test("the backend URL is asked once, the stack exported once", async () => {
    const result = await preflight({ stack: "dev" });
    expect(result.exitCode).toBe(0);
    const calls = readFileSync(join(root, "calls"), "utf8").trim().split("\n");
    expect(calls.map((call) => call.split(" --")[0]).sort()).toEqual(["stack export", "whoami"]);
  });

  test("an export that lost the race to create a new PostgreSQL backend's table runs once more", async () => {
    process.env.VOICEPLATFORM_TEST_RACES = "1";
    const result = await preflight({ stack: "dev" });
    expect(result.exitCode).toBe(0);
    const calls = readFileSync(join(root, "calls"), "utf8").trim().split("\n");
    expect(calls.filter((call) => call.startsWith("stack export"))).toHaveLength(2);
  });

  test("a second loss is not retried: the backend could not be read (exit 5), with the CLI's words", async () => {
    process.env.VOICEPLATFORM_TEST_RACES = "2";
    const result = await preflight({ stack: "dev" }).catch((error: unknown) => error);
    expect(result).toBeInstanceOf(BackendReadError);
    expect((result as Error).message).toContain("failed to create table pulumi_state");
    const calls = readFileSync(join(root, "calls"), "utf8").trim().split("\n");
    expect(calls.filter((call) => call.startsWith("stack export"))).toHaveLength(2);
  });
});
