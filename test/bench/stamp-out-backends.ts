/**
 * Issues 22 and 31: examples/environments/stamp-out.ts deploying STACKS sub-organization stacks
 * with 1, 2 and 4 runners (one stamp-out process per stack, that many at once, as CI jobs), against
 * each shared state backend: a file backend, a throwaway PostgreSQL, an S3-compatible server (moto)
 * and an Azure Blob emulator (Azurite). Each configuration starts from nothing: a new emulator, a
 * new database, bucket, container or folder, a new copy of the example.
 *
 *   npm run bench:backends                        # 20 stacks, runners 1,2,4, every backend
 *   npm run bench:backends -- --stacks 6 --runners 1,2 --backends s3,azblob
 *
 * Figures: the round's wall time, the speedup over one runner, and for PostgreSQL the share of
 * runner time the database spent executing the backend's statements (pg_stat_database.active_time,
 * summed over its connections, over the runners' summed seconds). The other backends have no
 * such counter; their wall time beside the file backend's shows what the store adds. Prints
 * figures; asserts only that every stack succeeded and each object was created once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../../provider/emulator";
import { locatePulumi, pulumiEnv } from "../pulumi-cli/locate";
import { startPostgres, type RunningPostgres } from "../support/postgres";
import { startAzurite, startMoto, type ThrowawayBackend } from "../support/throwaway-backend";
import { copyEnvironmentsExample, runStampOutRunners } from "../support/stamp-out-runners";

const API_KEY = "bench-stamp-out-api-key";

const BACKENDS = ["file", "postgres", "s3", "azblob"] as const;
type BackendName = (typeof BACKENDS)[number];

/** The servers of one bench run, each started only when a row needs it. */
interface Servers {
  postgres?: RunningPostgres;
  s3?: ThrowawayBackend;
  azblob?: ThrowawayBackend;
}

interface Row {
  readonly backend: BackendName;
  readonly runners: number;
  readonly wallSeconds: number;
  readonly runnerSeconds: number;
  readonly objects: number;
  readonly createdTwice: number;
  /** Database active time over runner time; undefined for the file backend. */
  readonly backendShare?: number;
}

const { values } = parseArgs({
  options: {
    stacks: { type: "string", default: "20" },
    runners: { type: "string", default: "1,2,4" },
    backends: { type: "string", default: BACKENDS.join(",") },
  },
});

async function databaseActiveMs(postgres: RunningPostgres, database: string): Promise<number> {
  const sql = (await import("postgres")).default(postgres.url("postgres"), {
    max: 1,
    onnotice: () => {},
  });
  try {
    // Statistics reach the view within a second of a session's end.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [row] = await sql<{ active: number }[]>`
      SELECT active_time AS active FROM pg_stat_database WHERE datname = ${database}`;
    return Number(row?.active ?? 0);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function measure(
  backend: Row["backend"],
  runners: number,
  stacks: number,
  servers: Servers,
): Promise<Row> {
  const subOrganizations = Array.from({ length: stacks }, (_, i) => `bench-${i + 1}`);
  const emulator = await startEmulator({ apiKey: API_KEY, subOrganizationIds: subOrganizations });
  const example = copyEnvironmentsExample();
  const home = mkdtempSync(join(tmpdir(), "bench-stamp-out-home-"));
  const database = `bench_${backend}_${runners}`;
  try {
    const store = `bench-${backend}-${runners}`;
    const backendUrl =
      backend === "postgres"
        ? await servers.postgres!.createDatabase(database)
        : backend === "file"
          ? `file://${mkdtempSync(join(example.root, "state-"))}`
          : await servers[backend]!.createStore(store);
    const started = Date.now();
    const results = await runStampOutRunners({
      subOrganizations,
      runners,
      workDir: example.project,
      backendUrl,
      platform: { ...emulator, apiKey: API_KEY },
      env: pulumiEnv({
        ...process.env,
        ...(backend === "s3" || backend === "azblob" ? servers[backend]!.env : {}),
        PULUMI_HOME: home,
        PULUMI_CONFIG_PASSPHRASE: "bench",
      }) as Record<string, string>,
    });
    const wallSeconds = (Date.now() - started) / 1000;
    const failed = results.filter((r) => r.code !== 0);
    if (failed.length > 0) {
      throw new Error(`${failed.length} stack(s) failed; the first:\n${failed[0]!.output}`);
    }
    const state = await emulator.state();
    const names = Object.values(state.organizations).flatMap((org) => [
      ...org.voices.map((v) => `${v.subOrganizationId} voice ${v.name}`),
      ...org.carriers.map((c) => `${c.subOrganizationId} carrier ${c.name}`),
      ...Object.values(org.subscriptions)
        .flat()
        .map((s) => `${s.subOrganizationId} subscription ${s.url}`),
    ]);
    const runnerSeconds = results.reduce((sum, r) => sum + r.seconds, 0);
    return {
      backend,
      runners,
      wallSeconds,
      runnerSeconds,
      objects: names.length,
      createdTwice: names.length - new Set(names).size,
      ...(backend === "postgres"
        ? {
            backendShare:
              (await databaseActiveMs(servers.postgres!, database)) / 1000 / runnerSeconds,
          }
        : {}),
    };
  } finally {
    await emulator.stop();
    example.remove();
    rmSync(home, { recursive: true, force: true });
  }
}

function printTable(rows: Row[], stacks: number): void {
  const header = [
    "backend",
    "runners",
    "wall s",
    "speedup",
    "s/stack",
    "objects",
    "twice",
    "db share",
  ];
  const cells = rows.map((row) => {
    const single = rows.find((r) => r.backend === row.backend && r.runners === 1);
    return [
      row.backend,
      String(row.runners),
      row.wallSeconds.toFixed(1),
      single === undefined ? "-" : `${(single.wallSeconds / row.wallSeconds).toFixed(2)}x`,
      (row.runnerSeconds / stacks).toFixed(1),
      String(row.objects),
      String(row.createdTwice),
      row.backendShare === undefined ? "n/a" : `${(row.backendShare * 100).toFixed(1)}%`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padStart(widths[i]!)).join("  ");
  console.log(`\nstamp-out of ${stacks} stacks, one process per stack (issues 22 and 31)`);
  console.log(line(header));
  for (const row of cells) console.log(line(row));
}

async function main(): Promise<void> {
  if (!locatePulumi()) throw new Error("no Pulumi CLI: run `npm run pulumi:install`");
  const stacks = Number(values.stacks);
  const runnerCounts = values.runners.split(",").map(Number);
  const backends = values.backends.split(",") as BackendName[];
  const unknown = backends.filter((b) => !(BACKENDS as readonly string[]).includes(b));
  if (unknown.length > 0)
    throw new Error(`--backends takes ${BACKENDS.join(", ")}, not ${unknown}`);
  const servers: Servers = {};
  const rows: Row[] = [];
  try {
    if (backends.includes("postgres")) servers.postgres = await startPostgres();
    if (backends.includes("s3")) servers.s3 = await startMoto();
    if (backends.includes("azblob")) servers.azblob = await startAzurite();
    for (const runners of runnerCounts) {
      for (const backend of backends) {
        const row = await measure(backend, runners, stacks, servers);
        console.log(
          `${backend}, ${runners} runner(s): ${row.wallSeconds.toFixed(1)} s, ${row.objects} objects, created twice: ${row.createdTwice}`,
        );
        rows.push(row);
      }
    }
  } finally {
    servers.postgres?.stop();
    await servers.s3?.stop();
    await servers.azblob?.stop();
  }
  printTable(
    [...rows].sort((a, b) => a.backend.localeCompare(b.backend) || a.runners - b.runners),
    stacks,
  );
  console.log(JSON.stringify({ stampOutBackends: rows }));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
