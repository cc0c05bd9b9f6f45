/**
 * The release's Linux and macOS plugin: the native launcher (provider/plugin/launcher) started
 * as the engine starts a plugin, per provider, handing out providers of one shared server per
 * engine run (provider/plugin/shared-server.ts). Here the server beside the launcher is the packed
 * package's plugin bin (the release puts its single executable there; test/release runs that).
 * Each provider keeps its own settings and connections; ending a launcher ends its provider only;
 * the server ends with the last one; anything that could make two processes differ gets its own
 * server; and a folder holding the sockets that is not the user's alone is not used.
 */
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { launcherPlugin } from "../support/launcher-plugin";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import { startProviderProcess, type ProviderProcess } from "../support/provider-process";
import { sharedServerPids, sharedServersLeft } from "../support/shared-servers";

const ENGINE = "127.0.0.1:1";
const PROVIDER_URN = "urn:pulumi:test::shared::pulumi:providers:voiceplatform::default";
const carrierUrn = (name: string) =>
  `urn:pulumi:test::shared::voiceplatform:index:SipCarrier::${name}`;
const carrier = (name: string) => ({
  name,
  registerUsername: "trunk-user",
  registerPassword: "sip-password-2024",
  gateways: [{ ipv4: "203.0.113.10", port: 5060, inbound: true }],
});

let emulator: RunningEmulator;
let project: string;
/** The launcher, with the server beside it as an unpacked archive holds them. */
let launcher: string;
let scratch: string;
const started: ProviderProcess[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "voiceplatform-shared-server-"));
  [emulator, project] = await Promise.all([
    startEmulator({
      organizations: [
        { id: "org_one", apiKey: "key-of-org-one" },
        { id: "org_two", apiKey: "key-of-org-two" },
      ],
    }),
    createFixtureProject({ name: "shared-server-test" }),
  ]);
  ({ launcher } = await launcherPlugin(scratch, project));
}, 180_000);

afterEach(async () => {
  await Promise.all(started.splice(0).map((plugin) => plugin.close()));
});

afterAll(async () => {
  await emulator?.stop();
  if (project !== undefined) await removeFixtureProject(project);
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  await Promise.all(runtimeFolders.map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A fresh runtime folder: the launcher keeps its sockets in `<it>/pvp-<uid>`. */
// Short, beside the scratch folder: a socket's path must fit in 103 bytes, and a longer one
// moves the launcher on to another folder (the test below).
const runtimeFolders: string[] = [];
async function runtimeFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "pvp-"));
  runtimeFolders.push(folder);
  return folder;
}

const socketsIn = async (runtime: string) =>
  existsSync(join(runtime, `pvp-${process.getuid!()}`))
    ? (await readdir(join(runtime, `pvp-${process.getuid!()}`))).filter((f) => f.endsWith(".sock"))
    : [];

async function launch(runtime: string, env: NodeJS.ProcessEnv = {}): Promise<ProviderProcess> {
  const plugin = await startProviderProcess(
    project,
    { XDG_RUNTIME_DIR: runtime, ...env },
    { executable: launcher, engineAddress: ENGINE },
  );
  started.push(plugin);
  return plugin;
}

const configureFor = (plugin: ProviderProcess, apiKey: string) =>
  plugin.configureProvider({
    apiKey,
    baseUrl: emulator.baseUrl,
    campaignsBaseUrl: emulator.campaignsBaseUrl,
    version: "0.1.0",
  });

async function carriersOf(organization: string): Promise<string[]> {
  const state = await emulator.state();
  return (state.organizations[organization]?.carriers ?? []).map((c) => c.name);
}

test("two providers of one run share one server, each with its own settings", async () => {
  const runtime = await runtimeFolder();
  const one = await launch(runtime);
  const two = await launch(runtime);
  expect(await socketsIn(runtime)).toHaveLength(1);
  expect(await sharedServerPids(runtime)).toHaveLength(1);
  // Configured one after the other: the first provider keeps its own key.
  await configureFor(one, "key-of-org-one");
  await configureFor(two, "key-of-org-two");
  await one.create(carrierUrn("a"), carrier("trunk of one"));
  await two.create(carrierUrn("b"), carrier("trunk of two"));
  expect(await carriersOf("org_one")).toEqual(["trunk of one"]);
  expect(await carriersOf("org_two")).toEqual(["trunk of two"]);
  // A provider's check failures and schema are its own calls' answers.
  const failures = await two.checkConfig(PROVIDER_URN, {}, { timeoutSeconds: "soon" });
  expect(failures.failures.map((f) => f.property)).toContain("timeoutSeconds");
});

test("ending a launcher ends its provider only; the server ends with the last one", async () => {
  const runtime = await runtimeFolder();
  const one = await launch(runtime);
  const two = await launch(runtime);
  const [server] = await sharedServerPids(runtime);
  await configureFor(two, "key-of-org-two");
  await one.close();
  // The first provider's port no longer answers; the second still creates.
  await expect(one.getPluginInfo()).rejects.toThrow();
  await two.create(carrierUrn("c"), carrier("after the first ended"));
  expect(await carriersOf("org_two")).toContain("after the first ended");
  expect(await sharedServerPids(runtime)).toEqual([server]);
  await two.close();
  expect(await sharedServersLeft(runtime)).toEqual([]);
  expect(await socketsIn(runtime)).toEqual([]);
});

test("a provider started with another environment or folder gets a server of its own", async () => {
  const runtime = await runtimeFolder();
  await launch(runtime);
  await launch(runtime, { VOICEPLATFORM_MAX_RETRIES: "1" });
  expect(await socketsIn(runtime)).toHaveLength(2);
  expect(await sharedServerPids(runtime)).toHaveLength(2);
});

test("without a runtime folder the sockets go to the temporary folder", async () => {
  const temporary = await runtimeFolder();
  await launch(join(scratch, "no-such-folder"), { TMPDIR: temporary });
  expect(await socketsIn(temporary)).toHaveLength(1);
});

test("runtime and temporary folders too long for a socket's path: the provider still starts", async () => {
  const long = join(
    await runtimeFolder(),
    "a-folder-name-of-sixty-characters-to-pass-the-socket-limit-",
    "x".repeat(40),
  );
  await mkdir(long, { recursive: true });
  const plugin = await launch(long, { TMPDIR: long });
  await configureFor(plugin, "key-of-org-one");
  expect(await plugin.getPluginInfo()).toEqual({ version: expect.any(String) });
  expect(await socketsIn(long)).toEqual([]);
});

test("when the server is gone, its launchers end and say so", async () => {
  const runtime = await runtimeFolder();
  const one = await launch(runtime);
  const [server] = await sharedServerPids(runtime);
  process.kill(server!, "SIGKILL");
  const exit = await one.exited;
  expect(exit.code).toBe(1);
});

test("PULUMI_VOICEPLATFORM_SHARED_SERVER=false runs a process per provider", async () => {
  const runtime = await runtimeFolder();
  const alone = await launch(runtime, { PULUMI_VOICEPLATFORM_SHARED_SERVER: "false" });
  await configureFor(alone, "key-of-org-one");
  expect(await alone.getPluginInfo()).toEqual({ version: expect.any(String) });
  expect(await socketsIn(runtime)).toEqual([]);
  expect(await sharedServerPids(runtime)).toEqual([]);
});

/**
 * A socket folder that is not the user's alone (another user made it first in a shared /tmp, it is
 * a link, others can enter it): the provider still serves, from a process of its own, and one line
 * on stderr says why and how to share one process again.
 */
describe.each([
  [
    "another user's",
    async (folder: string) => {
      await mkdir(folder, { mode: 0o700 });
      await chown(folder, 65534, 65534);
    },
    /belongs to another user \(uid 65534\), not to this one/,
    "needs root",
  ],
  [
    "open to others",
    async (folder: string) => {
      await mkdir(folder);
      await chmod(folder, 0o755);
    },
    /has mode 0755: others can enter it \(it must be 0700\)/,
    "any user",
  ],
  [
    "a link",
    async (folder: string) => {
      const elsewhere = `${folder}-target`;
      await mkdir(elsewhere, { mode: 0o700 });
      await symlink(elsewhere, folder);
    },
    /is a symbolic link, not a folder/,
    "any user",
  ],
] as const)("a socket folder %s", (_what, makeFolder, problem, who) => {
  // Only root can give a folder to another user; elsewhere that case is skipped, not failed.
  const testAs = who === "needs root" && process.getuid?.() !== 0 ? test.skip : test;
  testAs(
    "serves the provider from a process of its own, with one line saying why and the fix",
    async () => {
      const runtime = await runtimeFolder();
      const folder = join(runtime, `pvp-${process.getuid!()}`);
      await makeFolder(folder);
      const plugin = await launch(runtime);
      await configureFor(plugin, "key-of-org-one");
      await plugin.create(carrierUrn("alone"), carrier("served alone"));
      expect(await carriersOf("org_one")).toContain("served alone");
      expect(await sharedServerPids(runtime)).toEqual([]);
      const lines = plugin.stderr.split("\n").filter((line) => line.includes(folder));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(problem);
      expect(lines[0]).toMatch(`pulumi-resource-voiceplatform: ${folder} `);
      expect(lines[0]).toMatch(
        /so each provider runs in a process of its own .*: remove it \(or set TMPDIR or XDG_RUNTIME_DIR to a folder only you can enter\) to share one process per run again/,
      );
    },
  );
});
