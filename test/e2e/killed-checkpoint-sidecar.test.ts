/**
 * A `pulumi` killed while saving a checkpoint to a file backend can leave the checkpoint's
 * metadata sidecar (`<stack>.json.attrs`) empty; from then on every `pulumi` command on the stack
 * fails with "failed to load checkpoint: EOF" (seen once in CI after a SIGKILL mid-`up`). The
 * moment is too short to hit on purpose, so the sidecar is emptied here as the kill leaves it.
 * preflight and recover must name the file and the fix; following it, the stack reads again.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { EXIT } from "../../provider/cli/commands/command-result";
import { pulumiEnv, REPO_ROOT } from "../pulumi-cli/locate";
import { runToEnd } from "../support/command-result";
import { describeE2E, PASSPHRASE } from "./harness";

const BIN = join(REPO_ROOT, "dist", "provider", "cli", "main.js");
const PROJECT = "voice-sidecar";

describeE2E("a checkpoint sidecar a killed run left empty", () => {
  let root: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let sidecar: string;

  const pulumi = (args: string[]) =>
    runToEnd("pulumi", [...args, "--non-interactive"], { env, cwd: dir, timeout: 120_000 });
  const voicePlatform = (args: string[]) =>
    runToEnd(process.execPath, [BIN, ...args], { env, cwd: dir, timeout: 120_000 });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "voice-platform-sidecar-"));
    dir = join(root, "project");
    mkdirSync(dir);
    mkdirSync(join(root, "backend"));
    mkdirSync(join(root, "home"));
    // A YAML program needs no package: the stack's checkpoint is what this test is about.
    writeFileSync(
      join(dir, "Pulumi.yaml"),
      `name: ${PROJECT}\nruntime: yaml\noutputs:\n  greeting: hello\n`,
    );
    env = pulumiEnv({
      ...process.env,
      PULUMI_BACKEND_URL: pathToFileURL(join(root, "backend")).href,
      PULUMI_HOME: join(root, "home"),
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    });
    expect(await pulumi(["stack", "init", "dev"])).toMatchObject({ code: 0 });
    expect(await pulumi(["up", "--yes", "--stack", "dev"])).toMatchObject({ code: 0 });
    sidecar = join(root, "backend", ".pulumi", "stacks", PROJECT, "dev.json.attrs");
    truncateSync(sidecar, 0);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  test("the Pulumi CLI itself cannot read the stack, and does not say why", async () => {
    const exported = await pulumi(["stack", "export", "--stack", "dev"]);
    expect(exported.code).not.toBe(0);
    expect(exported.stderr).toContain("failed to load checkpoint: EOF");
    expect(exported.stderr).not.toContain(".attrs");
  });

  test.each([
    ["preflight", ["preflight", "--stack", "dev"]],
    ["recover", ["recover", "--stack", "dev", "--forget", `urn:pulumi:dev::${PROJECT}::x::y`]],
  ])("%s names the empty sidecar and the command that fixes it", async (_name, args) => {
    const result = await voicePlatform(args);
    expect(result.code).toBe(EXIT.backendUnreadable);
    expect(result.stderr).toContain(`the checkpoint's sidecar ${sidecar} is empty`);
    expect(result.stderr).toContain(
      `The checkpoint ${sidecar.slice(0, -".attrs".length)} itself is intact`,
    );
    expect(result.stderr).toContain(`rm '${sidecar}'`);
    expect(readFileSync(sidecar, "utf8")).toBe("");
  });

  test("following the advice, the stack reads again and nothing changes", async () => {
    const advice = (await voicePlatform(["preflight", "--stack", "dev"])).stderr;
    const [, path] = /`rm '([^']+)'`/.exec(advice)!;
    expect(path).toBe(sidecar);
    rmSync(path!);
    expect(await voicePlatform(["preflight", "--stack", "dev"])).toMatchObject({
      code: EXIT.clean,
      stderr: "",
    });
    const preview = await pulumi(["preview", "--expect-no-changes", "--stack", "dev"]);
    expect(preview.code).toBe(0);
  });
});
