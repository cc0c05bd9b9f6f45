/**
 * Issue 38: every `pulumi` run of preflight, recover and rekey has the backend's deadline. A
 * stand-in `pulumi` first on PATH (as in cli-calls.test.ts) answers some commands and never
 * answers others, the way a CLI stuck on a backend that accepts connections and never answers
 * does: the command is killed at the limit set through VOICEPLATFORM_BACKEND_TIMEOUT_SECONDS, the
 * command exits 5 naming the backend (never its password) and what to check, and nothing is left
 * running. The real CLI against frozen servers: test/e2e/stuck-backend.test.ts.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  BACKEND_TIMEOUT_VARIABLE,
  backendTimeoutSeconds,
  DEFAULT_BACKEND_TIMEOUT_SECONDS,
} from "../../../provider/cli/backends/backend-deadline";
import { EXIT } from "../../../provider/cli/commands/command-result";
import type { ExportedStack } from "../../../provider/cli/state/exported-state";
import { main } from "../../../provider/cli/main";
import {
  cipher,
  deployment,
  STACK,
  typeOf,
  urnOf,
  webhookInputs,
} from "../../support/state-builders";

const REPO = join(__dirname, "..", "..", "..");
const PASSWORD = "Pg-Secret-9f3e-backend";
/** A backend URL with a password in it, as a PULUMI_BACKEND_URL may hold one. */
const BACKEND_URL = `postgres://ci:${PASSWORD}@db.internal:6432/state?sslmode=verify-full`;
/** A webhook id an earlier version derived from its inputs: rekey gives it a new one. */
const DERIVED = "65a1f0c2e4b0a1b2c3d4e5f6/6cde438fc3f365eb";

type Answer = { kind: "answer"; text: string } | { kind: "hang" };

let root: string;
let projectDir: string;
const saved: Record<string, string | undefined> = {};

function setEnv(name: string, value: string | undefined): void {
  if (!(name in saved)) saved[name] = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/**
 * A `pulumi` that records each call and answers `stack export`, `whoami --json` and `stack
 * import` as told; one that hangs records its pid and sleeps in its place (exec), as a CLI
 * waiting on a silent backend does.
 */
function standIn(answers: { export: Answer; whoami?: Answer; import?: Answer }): void {
  const branch = (answer: Answer | undefined, name: string) => {
    if (answer === undefined) return `echo "unexpected: $*" >&2; exit 1`;
    if (answer.kind === "hang") return `echo $$ >> '${join(root, "hung")}'; exec sleep 120`;
    writeFileSync(join(root, name), answer.text);
    return `cat '${join(root, name)}'`;
  };
  const script = `#!/bin/sh
printf '%s\\n' "$*" >> '${join(root, "calls")}'
case "$1 $2" in
  "stack export") ${branch(answers.export, "export.json")} ;;
  "whoami --json") ${branch(answers.whoami, "whoami.json")} ;;
  "stack import") cat > /dev/null; ${branch(answers.import, "import.out")} ;;
  *) echo "unexpected: $*" >&2; exit 1 ;;
esac
`;
  writeFileSync(join(root, "pulumi"), script);
  chmodSync(join(root, "pulumi"), 0o755);
}

function lines(file: string): string[] {
  const path = join(root, file);
  return existsSync(path) ? readFileSync(path, "utf8").trim().split("\n") : [];
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** main() as the bin runs it, with what it printed and how long it took. */
async function runMain(args: string[]): Promise<{ code: number; stderr: string; seconds: number }> {
  let stderr = "";
  const write = jest.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const stdout = jest.spyOn(process.stdout, "write").mockImplementation(() => true);
  const started = Date.now();
  try {
    const code = await main(args);
    return { code, stderr, seconds: (Date.now() - started) / 1000 };
  } finally {
    write.mockRestore();
    stdout.mockRestore();
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "voiceplatform-deadline-"));
  projectDir = join(root, "project");
  mkdirSync(projectDir);
  writeFileSync(join(projectDir, "Pulumi.yaml"), "name: voice-app\nruntime: nodejs\n");
  setEnv("PATH", `${root}${delimiter}${process.env.PATH ?? ""}`);
  setEnv("PULUMI_BACKEND_URL", BACKEND_URL);
  setEnv(BACKEND_TIMEOUT_VARIABLE, "1");
});

afterEach(() => {
  for (const pid of lines("hung").map(Number)) if (running(pid)) process.kill(pid, "SIGKILL");
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
    delete saved[name];
  }
  rmSync(root, { recursive: true, force: true });
});

describe(`the limit (${BACKEND_TIMEOUT_VARIABLE})`, () => {
  it(`is ${DEFAULT_BACKEND_TIMEOUT_SECONDS} s unless set, and any number of seconds from 1 to 600`, () => {
    expect(backendTimeoutSeconds({})).toBe(DEFAULT_BACKEND_TIMEOUT_SECONDS);
    expect(backendTimeoutSeconds({ [BACKEND_TIMEOUT_VARIABLE]: "" })).toBe(30);
    expect(backendTimeoutSeconds({ [BACKEND_TIMEOUT_VARIABLE]: "2" })).toBe(2);
    expect(backendTimeoutSeconds({ [BACKEND_TIMEOUT_VARIABLE]: " 90.5 " })).toBe(90.5);
    expect(backendTimeoutSeconds({ [BACKEND_TIMEOUT_VARIABLE]: "600" })).toBe(600);
    for (const bad of ["0", "0.5", "601", "-5", "1e3", "30s", "soon", "Infinity"]) {
      const read = () => backendTimeoutSeconds({ [BACKEND_TIMEOUT_VARIABLE]: bad });
      expect(read).toThrow(`${BACKEND_TIMEOUT_VARIABLE} is "${bad}"`);
      expect(read).toThrow("number of seconds from 1 to 600");
    }
  });

  it("that cannot be used stops the command with exit 2 before any `pulumi` runs", async () => {
    standIn({ export: { kind: "hang" } });
    setEnv(BACKEND_TIMEOUT_VARIABLE, "ten");
    const result = await runMain(["preflight", "--stack", STACK, "--cwd", projectDir]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(`${BACKEND_TIMEOUT_VARIABLE} is "ten"`);
    expect(result.stderr).toMatch("number of seconds from 1 to 600");
    expect(result.stderr).toMatch("unset it for the default, 30");
    expect(lines("calls")).toEqual([]);
  });

  it("is what docs/operations.md and --help state", async () => {
    const operations = readFileSync(join(REPO, "docs", "operations.md"), "utf8");
    expect(operations).toMatch(`\`${BACKEND_TIMEOUT_VARIABLE}\``);
    expect(operations).toMatch(`${DEFAULT_BACKEND_TIMEOUT_SECONDS} s unless`);
    const help = await (async () => {
      let text = "";
      const out = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => {
        text += String(chunk);
        return true;
      });
      await main(["--help"]).finally(() => out.mockRestore());
      return text;
    })();
    expect(help).toMatch(`${DEFAULT_BACKEND_TIMEOUT_SECONDS} s unless ${BACKEND_TIMEOUT_VARIABLE}`);
  });
});

describe("a `pulumi` that never answers", () => {
  const commands: [string, string[]][] = [
    ["preflight", []],
    ["recover", ["--forget", urnOf("SipCarrier", "trunk")]],
    ["rekey", []],
  ];

  test.each(commands)(
    "%s: killed at the limit, exit 5 naming the backend but never its password, nothing left",
    async (command, extra) => {
      standIn({ export: { kind: "hang" }, whoami: { kind: "hang" } });
      const result = await runMain([command, "--stack", STACK, "--cwd", projectDir, ...extra]);
      expect(result.code).toBe(EXIT.backendUnreadable);
      expect(result.stderr).toMatch(`\`pulumi stack export --cwd ${projectDir} --stack ${STACK}\``);
      expect(result.stderr).toMatch(`within 1 s (${BACKEND_TIMEOUT_VARIABLE}) and was stopped`);
      expect(result.stderr).toMatch("PostgreSQL server at db.internal:6432");
      expect(result.stderr).toMatch("did not answer");
      expect(result.stderr).toMatch("Nothing was changed");
      expect(result.stderr).toMatch("Check that the backend runs and answers");
      expect(result.stderr).not.toMatch(PASSWORD);
      const hung = lines("hung").map(Number);
      expect(hung).toHaveLength(1);
      expect(hung.filter(running)).toEqual([]);
      expect(existsSync(join(projectDir, ".pulumi-voice-platform"))).toBe(false);
      // Generous: one second of limit, and a loaded machine's process starts and kill.
      expect(result.seconds).toBeLessThan(20);
      console.log(
        `${command} with a silent \`pulumi\` and a 1 s limit: exit 5 after ${result.seconds} s`,
      );
    },
    60_000,
  );

  it("a stopped import names the backup that restores the stack and what may be left", async () => {
    const inputs = webhookInputs({ isAdvanced: true, advancedWebhook: cipher("hook") });
    const webhook = {
      urn: urnOf(typeOf("CampaignWebhook"), "crm"),
      custom: true,
      type: typeOf("CampaignWebhook"),
      id: DERIVED,
      inputs,
      outputs: { ...inputs, status: "success", data: true, stateVersion: 1 },
    };
    const stored: ExportedStack = { version: 3, deployment: deployment([], [webhook]) };
    const backendDir = join(root, "backend");
    mkdirSync(backendDir);
    standIn({
      export: { kind: "answer", text: JSON.stringify(stored) },
      whoami: { kind: "answer", text: JSON.stringify({ url: pathToFileURL(backendDir).href }) },
      import: { kind: "hang" },
    });
    setEnv("PULUMI_BACKEND_URL", pathToFileURL(backendDir).href);
    const result = await runMain(["rekey", "--stack", STACK, "--cwd", projectDir]);

    expect(result.code).toBe(EXIT.backendUnreadable);
    expect(result.stderr).toMatch(`\`pulumi stack import --cwd ${projectDir} --stack ${STACK}\``);
    expect(result.stderr).toMatch("did not finish within 1 s");
    expect(result.stderr).toMatch(`the state folder ${backendDir} did not answer`);
    expect(result.stderr).toMatch("its former state");
    expect(result.stderr).toMatch("the one being imported");
    expect(result.stderr).toMatch("may keep the lock");
    const backups = join(projectDir, ".pulumi-voice-platform", "backups");
    const [backup] = readdirSync(backups);
    expect(result.stderr).toMatch(`saved in ${join(backups, backup!)}`);
    expect(result.stderr).toMatch(`\`pulumi stack import --file ${join(backups, backup!)}\``);
    expect(result.stderr).toMatch("` restores it");
    expect(JSON.parse(readFileSync(join(backups, backup!), "utf8"))).toEqual(stored);
    expect(lines("hung").map(Number).filter(running)).toEqual([]);
  }, 60_000);
});
