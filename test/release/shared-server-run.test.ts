/**
 * This platform's release archive under the real CLI with three explicit providers, one per
 * organization, as a stack stamped out per sub-organization declares them: the engine starts the
 * native launcher per provider, one shared server serves the run (provider/plugin/shared-server),
 * and each provider still uses its own key only. `pulumi up --yes` with its preview, a preview of
 * the same program that sends nothing, a refresh and a destroy; the run's server is gone after
 * each command. The plugin is installed from the archive; nothing on PATH provides it.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { describeE2E } from "../e2e/harness";
import { YamlStack } from "../languages/yaml-stack";
import { packageVersion } from "../../provider/schema/package-schema";
import { buildPluginArchives, hostPlatform } from "../../provider/release/plugin-archive";
import { hasSharedServer } from "../../provider/release/shared-launcher";
import { sharedServersLeft } from "../support/shared-servers";

const ORGANIZATIONS = ["one", "two", "three"];

function program(emulator: RunningEmulator): string {
  const lines = ["name: shared-server-run", "runtime: yaml", "resources:"];
  for (const org of ORGANIZATIONS) {
    lines.push(
      `  provider-${org}:`,
      "    type: pulumi:providers:voiceplatform",
      "    properties:",
      `      apiKey: key-of-org-${org}`,
      `      baseUrl: ${emulator.baseUrl}`,
      `      campaignsBaseUrl: ${emulator.campaignsBaseUrl}`,
      `  trunk-${org}:`,
      "    type: voiceplatform:index:SipCarrier",
      "    properties:",
      `      name: Trunk of ${org}`,
      "    options:",
      `      provider: \${provider-${org}}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const run =
  hasSharedServer(hostPlatform()) && process.platform === "linux" ? describeE2E : describe.skip;

run("the release archive: three providers, one shared server per run", () => {
  jest.setTimeout(600_000);
  let emulator: RunningEmulator;
  let scratch: string;
  let runtime: string;
  let stack: YamlStack;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "voiceplatform-shared-run-"));
    // Short: a socket's path must fit in 103 bytes, or the launcher uses another folder.
    runtime = await mkdtemp(join(tmpdir(), "pvp-"));
    emulator = await startEmulator({
      organizations: ORGANIZATIONS.map((org) => ({
        id: `org_${org}`,
        apiKey: `key-of-org-${org}`,
      })),
    });
    const [archive] = await buildPluginArchives({
      outDir: join(scratch, "archives"),
      version: packageVersion(),
      platforms: [hostPlatform()],
      sea: true,
    });
    const base = await YamlStack.create(program(emulator), {}, { ambient: false });
    stack = await base.otherStack("run", { XDG_RUNTIME_DIR: runtime });
    await stack.must([
      "plugin",
      "install",
      "resource",
      "voiceplatform",
      packageVersion(),
      "--file",
      archive!.file,
    ]);
  }, 600_000);

  afterAll(async () => {
    await emulator?.stop();
    if (stack !== undefined) await stack.remove();
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
    if (runtime !== undefined) await rm(runtime, { recursive: true, force: true });
  });

  const carriersOf = async (org: string) =>
    ((await emulator.state()).organizations[`org_${org}`]?.carriers ?? []).map((c) => c.name);

  test("up creates each trunk once, in its own organization, through the launcher's server", async () => {
    await stack.pulumiUp();
    for (const org of ORGANIZATIONS) expect(await carriersOf(org)).toEqual([`Trunk of ${org}`]);
    // One create per trunk, none refused: no key reached another organization's call.
    const requests = await emulator.requests();
    expect(requests).toHaveLength(ORGANIZATIONS.length);
    expect(requests.every((r) => r.status !== null && r.status < 300)).toBe(true);
    // The launcher kept its sockets in the runtime folder given; the run's server has ended.
    expect(existsSync(join(runtime, `pvp-${process.getuid!()}`))).toBe(true);
    expect(await sharedServersLeft(runtime)).toEqual([]);
  });

  test("a preview of the same program sends nothing and changes nothing", async () => {
    const before = (await emulator.requests()).length;
    await stack.must(["preview", "--expect-no-changes"]);
    expect((await emulator.requests()).length).toBe(before);
  });

  test("refresh keeps each trunk; destroy empties the stack; no server is left", async () => {
    await stack.must(["refresh", "--yes"]);
    await stack.must(["destroy", "--yes"]);
    const left = Object.values(await stack.resources()).filter((r) =>
      r.type.startsWith("voiceplatform:index:"),
    );
    expect(left).toEqual([]);
    expect(await sharedServersLeft(runtime)).toEqual([]);
    expect(await readdir(join(runtime, `pvp-${process.getuid!()}`))).toEqual([]);
  });
});
