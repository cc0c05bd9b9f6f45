/**
 * The engine acquires the plugin by itself: the plugin archive for this machine is built and
 * served from a local HTTP server, the Python SDK is generated with that server as its
 * pluginDownloadURL and built into a wheel, and a one-carrier Python program using the wheel runs
 * with a fresh PULUMI_HOME and no plugin on PATH. The engine must download the archive, install
 * it under PULUMI_HOME/plugins and run it: the emulator sees exactly one create.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { cli, describeE2E } from "../e2e/harness";
import { pulumiEnv } from "../pulumi-cli/locate";
import { packageVersion } from "../../provider/schema/package-schema";
import {
  archiveName,
  buildPluginArchives,
  hostPlatform,
} from "../../provider/release/plugin-archive";
import { sourceDateEpoch } from "../../provider/release/reproducible-archive";
import { buildPythonPackages } from "../../provider/release/sdk-packages";
import { REPO_ROOT } from "../support/packed-package";
import { generateSdks } from "../../provider/codegen/generate-sdks";
import { API_KEY, installedPlugin, prepareProgram, runOneCarrier } from "./one-carrier";
import { servePluginFolder, type PluginServer } from "./plugin-server";

describeE2E("the engine fetches the plugin from the SDK's pluginDownloadURL", () => {
  const version = packageVersion();
  let root: string;
  let server: PluginServer;
  let emulator: RunningEmulator;
  let wheel: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "voiceplatform-auto-acquire-"));
    server = await servePluginFolder(join(root, "plugin"));
    emulator = await startEmulator({ apiKey: API_KEY });
    await buildPluginArchives({
      outDir: join(root, "plugin"),
      version,
      platforms: [hostPlatform()],
      sea: true,
    });
    // The located CLI and its language hosts, as on a machine whose PATH has neither.
    await generateSdks({
      out: join(root, "sdk"),
      languages: ["python"],
      release: { pluginDownloadURL: server.url },
      pulumi: cli!.pulumi,
      env: pulumiEnv(),
    });
    const built = await buildPythonPackages(join(root, "sdk", "python"), join(root, "dist"), {
      epochSeconds: await sourceDateEpoch(REPO_ROOT),
    });
    wheel = built.find((file) => file.endsWith(".whl"))!;
  });

  afterAll(async () => {
    await server?.close();
    await emulator?.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  test("the generated SDK names the server; the wheel carries it", async () => {
    const manifest = JSON.parse(
      await readFile(
        join(root, "sdk", "python", "pulumi_voiceplatform", "pulumi-plugin.json"),
        "utf8",
      ),
    ) as Record<string, unknown>;
    expect(manifest).toEqual({
      resource: true,
      name: "voiceplatform",
      version,
      server: server.url,
    });
    expect(wheel).toMatch(new RegExp(`pulumi_voiceplatform-${version}-py3-none-any\\.whl$`));
  });

  test("up downloads and installs the plugin, creates the carrier once; destroy empties the stack", async () => {
    const program = join(root, "program");
    await prepareProgram("python", program, { artifact: wheel });
    const home = join(root, "run");
    expect(existsSync(installedPlugin(join(home, "home"), version))).toBe(false);

    const { pulumiHome } = await runOneCarrier(program, home, emulator);

    const archive = `/${archiveName(version, hostPlatform())}`;
    expect(server.requests).toContain(`GET ${archive} 200`);
    expect(server.requests.filter((line) => line.endsWith(" 404"))).toEqual([]);
    expect(existsSync(installedPlugin(pulumiHome, version))).toBe(true);
  });
});
