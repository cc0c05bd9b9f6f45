import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ExportedStack } from "../../../provider/cli/state/exported-state";
import { preflight } from "../../../provider/cli/commands/preflight";
import {
  isPostgresBackend,
  lockKeyPrefixes,
  postgresStateTable,
  postgresTarget,
  tlsPlan,
} from "../../../provider/cli/backends/postgres-locks";
import { s3ClientSettings } from "../../../provider/cli/backends/s3-locks";
import { azureBlobSettings } from "../../../provider/cli/backends/azblob-locks";
import { recover } from "../../../provider/cli/commands/recover";
import { PulumiCliError, RecoveryRefused } from "../../../provider/cli/errors";
import {
  ageText,
  describeLock,
  fileBackendDirectory,
  holdersInLockedError,
  livenessOf,
  lockDirectories,
  lockFileHolders,
  thisMachine,
  type LocalMachine,
  type StackAccess,
} from "../../../provider/cli/backends/stack-lock";
import {
  carrierInputs,
  deployment,
  pendingCreate,
  PROJECT,
  STACK,
  urnOf,
} from "../../support/state-builders";

/** What `pulumi stack import` printed on a locked file-backend stack (CLI 3.248.0, measured). */
const LOCKED_IMPORT_ERROR = `error: could not import deployment: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with \`pulumi cancel\`.
  file:///tmp/x/backend/.pulumi/locks/organization/lockexp/dev/4dec94ac-87fd-4c70-aad8-01cd21a229a8.json?no_tmp_dir=true: created by root@vm (pid 24133) at 2026-11-24T21:26:16Z
`;

const NOW = new Date("2026-11-24T21:30:00Z");
const HOST = "runner-1";
const LIVE_PID = 4100;
const DEAD_PID = 4200;

/** This machine as the tests see it: LIVE_PID runs, every other pid does not. */
const machine: LocalMachine = { hostname: HOST, isRunning: (pid) => pid === LIVE_PID };

let backend: string;
let projectDir: string;

beforeEach(() => {
  backend = mkdtempSync(join(tmpdir(), "stack-lock-"));
  projectDir = join(backend, "project");
  mkdirSync(projectDir);
  writeFileSync(join(projectDir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime: nodejs\n`);
});
afterEach(() => rmSync(backend, { recursive: true, force: true }));

/** A lock file as the file backend writes it, with the `.attrs` file beside it. */
function writeLock(holder: { pid: number; hostname: string; timestamp: string }): void {
  const dir = lockDirectories(backend, PROJECT, STACK)[0]!;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "lock-1.json"), JSON.stringify({ ...holder, username: "ci" }));
  writeFileSync(join(dir, "lock-1.json.attrs"), "{}");
}

function stackWithPendingCreate(time = "2026-11-23T15:00:00Z"): ExportedStack {
  const state = deployment([pendingCreate("SipCarrier", "trunk", carrierInputs("trunk"))]);
  return { version: 3, deployment: { ...state, manifest: { time, magic: "m" } } };
}

interface FakeStack extends StackAccess {
  readonly calls: string[];
}

/** The Pulumi CLI's part on a file backend, held in memory; `exports` are answered in order. */
function fakeStack(options: {
  exports: ExportedStack[];
  url?: string;
  importFails?: PulumiCliError;
  inProgress?: boolean;
}): FakeStack {
  const calls: string[] = [];
  let served = 0;
  let importError = options.importFails;
  return {
    calls,
    exportStack: async () => {
      calls.push("export");
      return options.exports[Math.min(served++, options.exports.length - 1)]!;
    },
    importStack: async () => {
      calls.push("import");
      if (importError !== undefined) {
        const error = importError;
        importError = undefined;
        throw error;
      }
    },
    cancelUpdate: async () => {
      calls.push("cancel");
    },
    backendUrl: async () => options.url ?? pathToFileURL(backend).href,
    updateInProgress: async () => options.inProgress === true,
  };
}

const target = () => ({ stack: STACK, cwd: projectDir });

describe("reading locks", () => {
  it("reads the holder from the CLI's 'currently locked' error", () => {
    expect(holdersInLockedError(LOCKED_IMPORT_ERROR)).toEqual([
      { user: "root", host: "vm", pid: 24133, since: new Date("2026-11-24T21:26:16Z") },
    ]);
    expect(
      new PulumiCliError(["stack", "import"], LOCKED_IMPORT_ERROR, "exit code 1").isLocked,
    ).toBe(true);
  });

  it("finds a file backend's folder, and none for other backends", () => {
    expect(fileBackendDirectory("file:///srv/state?no_tmp_dir=true")).toBe("/srv/state");
    expect(fileBackendDirectory("file://~")).toBe(homedir());
    expect(fileBackendDirectory("https://api.pulumi.com")).toBeUndefined();
    expect(fileBackendDirectory("s3://bucket")).toBeUndefined();
  });

  it("reads the holders of the lock files and ignores the .attrs files", async () => {
    writeLock({ pid: 77, hostname: "vm", timestamp: "2026-11-24T21:26:16.485481482Z" });
    expect(await lockFileHolders(lockDirectories(backend, PROJECT, STACK))).toEqual([
      { user: "ci", host: "vm", pid: 77, since: new Date("2026-11-24T21:26:16.485Z") },
    ]);
    expect(await lockFileHolders([join(backend, "missing")])).toEqual([]);
  });

  it("checks a holder's pid only on this machine", () => {
    expect(livenessOf({ host: HOST, pid: LIVE_PID }, machine)).toBe("alive");
    expect(livenessOf({ host: HOST, pid: DEAD_PID }, machine)).toBe("dead");
    expect(livenessOf({ host: "other", pid: LIVE_PID }, machine)).toBe("unknown");
    expect(livenessOf({ host: HOST }, machine)).toBe("unknown");
    expect(livenessOf({}, machine)).toBe("unknown");
  });

  it("sees this process as running and an ended child as not", () => {
    const ended = spawnSync(process.execPath, ["-e", ""]).pid;
    expect(thisMachine.isRunning(process.pid)).toBe(true);
    expect(thisMachine.isRunning(ended)).toBe(false);
  });

  it("describes holder, age and liveness", () => {
    const since = new Date("2026-11-24T21:18:00Z");
    const live = describeLock(
      { holder: { user: "ci", host: HOST, pid: LIVE_PID, since }, liveness: "alive" },
      NOW,
    );
    expect(live).toContain(`ci@${HOST} (pid ${LIVE_PID})`);
    expect(live).toContain("locked 12 min ago (2026-11-24T21:18:00.000Z)");
    expect(live).toContain("still running on this machine");
    expect(describeLock({ holder: {}, liveness: "unknown" }, NOW)).toMatch(
      /^an update the backend reports as in progress, whether it still runs cannot be checked/,
    );
    expect([ageText(5_000), ageText(600_000), ageText(3 * 3600_000)]).toEqual([
      "5 s",
      "10 min",
      "3 h",
    ]);
  });
});

describe("preflight on a locked stack", () => {
  it("exits 3 under a live local update, naming holder and age, without a recover command", async () => {
    writeLock({ pid: LIVE_PID, hostname: HOST, timestamp: "2026-11-24T21:29:30Z" });
    const access = fakeStack({ exports: [stackWithPendingCreate()] });
    const result = await preflight(target(), access, machine, NOW);
    expect(result.exitCode).toBe(3);
    expect(result.text).toMatch(`Stack ${STACK} is locked`);
    expect(result.text).toMatch("update in progress");
    expect(result.text).toMatch(`ci@${HOST} (pid ${LIVE_PID}), locked 30 s ago`);
    expect(result.text).toMatch("Wait for it to finish");
    expect(result.text).toMatch("do not run recover");
    expect(result.text).not.toMatch("pulumi-voice-platform recover");
    expect(result.text).not.toMatch("A `pulumi up` stopped");
  });

  it("exits 3 for a holder on another machine, and says when --cancel-stale-lock applies", async () => {
    writeLock({ pid: DEAD_PID, hostname: "other-runner", timestamp: "2026-11-24T20:30:00Z" });
    const result = await preflight(
      target(),
      fakeStack({ exports: [stackWithPendingCreate()] }),
      machine,
      NOW,
    );
    expect(result.exitCode).toBe(3);
    expect(result.text).toMatch("locked 60 min ago");
    expect(result.text).toMatch("`recover --cancel-stale-lock` releases the lock");
    // What a runner that died elsewhere left, for the one who knows it is gone.
    expect(result.text).toMatch(/known to be gone[^\n]*what it left/);
    expect(result.text).toMatch('create of SipCarrier "trunk"');
    // The whole command line is pinned: it is what the user copies and runs.
    expect(result.text).toMatch(
      `npx pulumi-voice-platform recover --stack ${STACK} --cwd ${projectDir} --cancel-stale-lock`,
    );
  });

  it("exits 3 under a live local update without listing what a gone run would have left", async () => {
    writeLock({ pid: LIVE_PID, hostname: HOST, timestamp: "2026-11-24T21:29:30Z" });
    const result = await preflight(
      target(),
      fakeStack({ exports: [stackWithPendingCreate()] }),
      machine,
      NOW,
    );
    expect(result.text).not.toMatch("known to be gone");
  });

  it("says on a Google Cloud Storage backend that it cannot see its locks", async () => {
    const access = fakeStack({
      exports: [{ version: 3, deployment: deployment([]) }],
      url: "gs://team-state/voice",
      inProgress: true,
    });
    const result = await preflight(target(), access, machine, NOW);
    expect(result.exitCode).toBe(0);
    expect(result.text).toMatch("Google Cloud Storage backend");
    expect(result.text).toMatch("are not read here");
    expect(result.text).toMatch("one concurrency group");
  });

  it("exits 3 when a service backend reports an update in progress", async () => {
    const access = fakeStack({
      exports: [stackWithPendingCreate()],
      url: "https://api.pulumi.com",
      inProgress: true,
    });
    const result = await preflight(target(), access, machine, NOW);
    expect(result.exitCode).toBe(3);
    expect(result.text).toMatch("backend reports as in progress");
  });

  it("exits 1 for a stopped run's lock, with --cancel-stale-lock in the printed command", async () => {
    writeLock({ pid: DEAD_PID, hostname: HOST, timestamp: "2026-11-24T21:00:00Z" });
    const result = await preflight(
      target(),
      fakeStack({ exports: [stackWithPendingCreate()] }),
      machine,
      NOW,
    );
    expect(result.exitCode).toBe(1);
    expect(result.text).toMatch("A `pulumi up` stopped");
    expect(result.text).toMatch("out of memory");
    // The whole command line is pinned: it is what the user copies and runs.
    expect(result.text).toMatch(
      `npx pulumi-voice-platform recover --stack ${STACK} --cwd ${projectDir} --cancel-stale-lock`,
    );
    expect(result.text).toMatch("no process with that pid");
  });

  it("keeps exit 1 and the stopped-run report when no lock is left", async () => {
    const result = await preflight(
      target(),
      fakeStack({ exports: [stackWithPendingCreate()] }),
      machine,
      NOW,
    );
    expect(result.exitCode).toBe(1);
    expect(result.text).toMatch("A `pulumi up` stopped");
    expect(result.text).not.toMatch("--cancel-stale-lock \\");
  });
});

describe("recover on a locked stack", () => {
  const forgetTrunk = (extra: { cancelStaleLock?: true } = {}) => ({
    ...target(),
    assignments: [],
    forget: [urnOf("SipCarrier", "trunk")],
    ...extra,
  });

  it("refuses without --cancel-stale-lock, naming holder and age, and changes nothing", async () => {
    writeLock({ pid: DEAD_PID, hostname: "other-runner", timestamp: "2026-11-24T21:20:00Z" });
    const access = fakeStack({ exports: [stackWithPendingCreate()] });
    const refused = await recover(forgetTrunk(), NOW, access, machine).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(RecoveryRefused);
    expect((refused as Error).message).toMatch(
      /ci@other-runner \(pid 4200\), locked 10 min ago[\s\S]*add --cancel-stale-lock/,
    );
    expect(access.calls).not.toContain("import");
    expect(access.calls).not.toContain("cancel");
  });

  it("never releases the lock of a process running on this machine, even when asked", async () => {
    writeLock({ pid: LIVE_PID, hostname: HOST, timestamp: "2026-11-24T21:29:00Z" });
    const access = fakeStack({ exports: [stackWithPendingCreate()] });
    await expect(
      recover(forgetTrunk({ cancelStaleLock: true }), NOW, access, machine),
    ).rejects.toThrow(
      /update running on this machine[\s\S]*never releases the lock of a running process/,
    );
    expect(access.calls).toEqual(["export"]);
  });

  it("refuses a lock that only shows when importing, with the holder from the CLI's error", async () => {
    const access = fakeStack({
      exports: [stackWithPendingCreate()],
      importFails: new PulumiCliError(["stack", "import"], LOCKED_IMPORT_ERROR, "exit code 1"),
    });
    await expect(recover(forgetTrunk(), NOW, access, machine)).rejects.toThrow(
      /root@vm \(pid 24133\)/,
    );
    expect(access.calls.filter((call) => call === "cancel")).toEqual([]);
  });

  it("with --cancel-stale-lock releases a stopped run's lock and imports", async () => {
    writeLock({ pid: DEAD_PID, hostname: HOST, timestamp: "2026-11-24T21:00:00Z" });
    const stopped = `error: the stack is currently locked by 1 lock(s).\n  file:///x.json: created by ci@${HOST} (pid ${DEAD_PID}) at 2026-11-24T21:00:00Z\n`;
    const access = fakeStack({
      exports: [
        stackWithPendingCreate(),
        stackWithPendingCreate(),
        { version: 3, deployment: deployment([]) },
      ],
      importFails: new PulumiCliError(["stack", "import"], stopped, "exit code 1"),
    });
    const result = await recover(forgetTrunk({ cancelStaleLock: true }), NOW, access, machine);
    expect(result.exitCode).toBe(0);
    expect(access.calls).toEqual(["export", "export", "import", "cancel", "import", "export"]);
    expect(result.text).toMatch("Released the lock");
    expect(result.text).toMatch("(pulumi cancel --yes)");
  });

  it("refuses when the stack changed since the plan, and imports when only timestamps did", async () => {
    const changed = stackWithPendingCreate();
    changed.deployment.pending_operations!.push(
      pendingCreate("SipCarrier", "backup", carrierInputs("backup")),
    );
    const moved = fakeStack({ exports: [stackWithPendingCreate(), changed] });
    await expect(recover(forgetTrunk(), NOW, moved, machine)).rejects.toThrow(
      /the stack changed since recover read it/,
    );
    expect(moved.calls).not.toContain("import");

    const later = stackWithPendingCreate("2026-11-24T21:29:59Z");
    later.deployment.pending_operations![0]!.resource.modified = "2026-11-24T21:29:59Z";
    const touched = fakeStack({
      exports: [stackWithPendingCreate(), later, { version: 3, deployment: deployment([]) }],
    });
    expect((await recover(forgetTrunk(), NOW, touched, machine)).exitCode).toBe(0);
    expect(touched.calls).toEqual(["export", "export", "import", "export"]);
  });
});

describe("locks on the PostgreSQL backend", () => {
  const url = "postgres://ci@db.internal:5432/state?sslmode=disable&table=team_state";

  it("recognises the backend by its scheme", () => {
    expect(isPostgresBackend(url)).toBe(true);
    expect(isPostgresBackend("postgresql://db/state")).toBe(true);
    expect(isPostgresBackend("file:///srv/state")).toBe(false);
  });

  it("looks for a stack's locks under the database's prefix, as the backend keys them", () => {
    expect(lockKeyPrefixes(url, PROJECT, STACK)).toEqual([
      `state/.pulumi/locks/organization/${PROJECT}/${STACK}/`,
      `state/.pulumi/locks/${STACK}/`,
    ]);
    expect(lockKeyPrefixes("postgres://", PROJECT, STACK)[0]).toBe(
      `.pulumi/locks/organization/${PROJECT}/${STACK}/`,
    );
  });

  it("reads the table from the URL", () => {
    expect(postgresStateTable(url)).toBe("team_state");
    expect(postgresStateTable("postgres://db/state")).toBe("pulumi_state");
    expect(() => postgresStateTable("postgres://db/state?table=x;drop")).toThrow(
      "not a plain SQL identifier",
    );
  });

  const noHome = mkdtempSync(join(tmpdir(), "no-postgres-home-"));
  afterAll(() => rmSync(noHome, { recursive: true, force: true }));
  const target = (text: string, env: NodeJS.ProcessEnv = {}) => postgresTarget(text, env, noHome);

  it("reads host, database, user and password from the URL, then the PG* variables", () => {
    expect(target("postgres://ci:p%40ss@db.internal:6432/state")).toMatchObject({
      host: "db.internal",
      port: 6432,
      database: "state",
      user: "ci",
      password: "p@ss",
    });
    expect(
      target("postgres://db.internal/state", { PGUSER: "runner", PGPASSWORD: "from-env" }),
    ).toMatchObject({ user: "runner", password: "from-env", port: 5432 });
  });

  it("asks for TLS unless the URL says sslmode=disable, and verifies as each mode says", () => {
    const plan = (text: string) => tlsPlan(target(text));
    expect(target("postgres://db/state").sslmode).toBe("require");
    expect(target("postgres://db/state", { PGSSLMODE: "verify-full" }).sslmode).toBe("verify-full");
    expect(plan("postgres://db/state")).toMatchObject({
      ask: true,
      required: true,
      options: { rejectUnauthorized: false },
    });
    expect(plan("postgres://db/state?sslmode=disable")).toMatchObject({ ask: false });
    expect(plan("postgres://db/state?sslmode=allow")).toMatchObject({
      ask: false,
      required: false,
    });
    expect(plan("postgres://db/state?sslmode=prefer")).toMatchObject({
      ask: true,
      required: false,
    });
    expect(plan("postgres://db/state?sslmode=verify-full")).toMatchObject({
      required: true,
      options: { rejectUnauthorized: true, servername: "db" },
    });
    const verifyCa = plan("postgres://db/state?sslmode=verify-ca");
    expect(verifyCa.options.rejectUnauthorized).toBe(true);
    expect(verifyCa.options.checkServerIdentity?.("db", {} as never)).toBeUndefined();
    expect(target("postgres://db/state?sslrootcert=system").sslmode).toBe("verify-full");
    expect(() => target("postgres://db/state?sslmode=on")).toThrow(
      /sslmode "on".*disable, allow, prefer, require, verify-ca, verify-full.*fix PULUMI_BACKEND_URL/,
    );
  });

  it("takes connect_timeout from the URL and keeps a stated default", () => {
    expect(target("postgres://db/state?connect_timeout=3").connectSeconds).toBe(3);
    expect(target("postgres://db/state").connectSeconds).toBe(10);
  });
});

describe("locks on S3-compatible and Azure Blob backends", () => {
  it("reads bucket, endpoint, region, profile and path style as the CLI's s3 URL gives them", () => {
    const { bucket, config } = s3ClientSettings(
      "s3://team-state/voice?endpoint=127.0.0.1:9000&disableSSL=true&s3ForcePathStyle=true&region=eu-west-1&profile=ci",
    );
    expect(bucket).toBe("team-state");
    expect(config).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-1",
      profile: "ci",
      forcePathStyle: true,
    });
    expect(s3ClientSettings("s3://b?endpoint=minio.internal").config.endpoint).toBe(
      "https://minio.internal",
    );
    expect(s3ClientSettings("s3://b?use_path_style=true").config.forcePathStyle).toBe(true);
    expect(() => s3ClientSettings("s3://b?role=arn:aws:iam::1:role/x")).toThrow(
      "`role` parameter is not read",
    );
    expect(lockKeyPrefixes("s3://team-state/voice?region=x", PROJECT, STACK)[0]).toBe(
      `voice/.pulumi/locks/organization/${PROJECT}/${STACK}/`,
    );
  });

  it("builds the Azure service URL and picks the credential as gocloud.dev does", () => {
    const emulator = azureBlobSettings(
      "azblob://state?localemu=true&domain=127.0.0.1:10000&protocol=http",
      { AZURE_STORAGE_ACCOUNT: "devstoreaccount1", AZURE_STORAGE_KEY: "a2V5" },
    );
    expect(emulator).toMatchObject({
      container: "state",
      serviceUrl: "http://127.0.0.1:10000/devstoreaccount1",
      credential: { kind: "shared-key", account: "devstoreaccount1" },
    });
    expect(
      azureBlobSettings("azblob://state", {
        AZURE_STORAGE_ACCOUNT: "team",
        AZURE_STORAGE_SAS_TOKEN: "?sv=1&sig=abc",
      }),
    ).toMatchObject({
      serviceUrl: "https://team.blob.core.windows.net",
      credential: { kind: "sas", token: "sv=1&sig=abc" },
    });
    expect(
      azureBlobSettings("azblob://state", { AZURE_STORAGE_ACCOUNT: "team" }).credential,
    ).toEqual({ kind: "entra-id" });
    expect(() => azureBlobSettings("azblob://state", {})).toThrow("AZURE_STORAGE_ACCOUNT");
  });
});

describe("recover's own files, never written through a symbolic link", () => {
  const forgetTrunk = () => ({
    ...target(),
    assignments: [],
    forget: [urnOf("SipCarrier", "trunk")],
  });
  const settled = () =>
    fakeStack({
      exports: [
        stackWithPendingCreate(),
        stackWithPendingCreate(),
        { version: 3, deployment: deployment([]) },
      ],
    });
  let victimDir: string;
  beforeEach(() => {
    victimDir = mkdtempSync(join(tmpdir(), "recover-victim-"));
  });
  afterEach(() => rmSync(victimDir, { recursive: true, force: true }));

  it("leaves a linked .gitignore's target untouched and still saves the backup", async () => {
    const victim = join(victimDir, "precious.txt");
    writeFileSync(victim, "keep me\n");
    mkdirSync(join(projectDir, ".pulumi-voice-platform"));
    symlinkSync(victim, join(projectDir, ".pulumi-voice-platform", ".gitignore"));
    const result = await recover(forgetTrunk(), NOW, settled(), machine);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    const backup = /Saved the state being replaced to (\S+)/.exec(result.text)![1]!;
    expect(lstatSync(backup).isFile()).toBe(true);
    expect(lstatSync(backup).mode & 0o777).toBe(0o600);
  });

  it.each([".pulumi-voice-platform", ".pulumi-voice-platform/backups"])(
    "refuses a link in place of %s and writes nothing through it",
    async (linked) => {
      mkdirSync(join(projectDir, ".pulumi-voice-platform"), { recursive: true });
      if (linked === ".pulumi-voice-platform")
        rmSync(join(projectDir, linked), { recursive: true });
      symlinkSync(victimDir, join(projectDir, linked));
      const access = settled();
      const refused = await recover(forgetTrunk(), NOW, access, machine).catch((e: Error) => e);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toContain(join(projectDir, linked));
      expect((refused as Error).message).toContain("symbolic link or not a folder");
      expect((refused as Error).message).toContain("Remove it and run recover again");
      expect(readdirSync(victimDir)).toEqual([]);
      expect(access.calls).not.toContain("import");
    },
  );

  it("writes a backup even when a dangling link waits at the .gitignore's name", async () => {
    mkdirSync(join(projectDir, ".pulumi-voice-platform"));
    const planted = join(victimDir, "created-through-link");
    symlinkSync(planted, join(projectDir, ".pulumi-voice-platform", ".gitignore"));
    expect((await recover(forgetTrunk(), NOW, settled(), machine)).exitCode).toBe(0);
    expect(existsSync(planted)).toBe(false);
  });
});
