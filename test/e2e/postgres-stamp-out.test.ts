/**
 * Issue 22: GitOps at team scale. examples/environments/stamp-out.ts deploys sub-organization
 * stacks (4 by default, 20 with VOICEPLATFORM_STAMP_OUT_STACKS=20; the bench measures 20) from as
 * many separate processes, at most RUNNERS at a time, as CI jobs with a concurrency
 * limit would, all sharing one PostgreSQL state backend and one platform. Every stack converges,
 * every object is created once (the emulator's request log holds one create per object and
 * nothing else: the previews sent nothing), and a second round changes nothing anywhere.
 *
 * @slow over a minute: two rounds of stacks
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { postgresStore } from "../../provider/ledger/backend-stores";
import { pulumiEnv } from "../pulumi-cli/locate";
import { startPostgres, type RunningPostgres } from "../support/postgres";
import {
  copyEnvironmentsExample,
  expectEachObjectCreatedOnce,
  expectNothingChanged,
  expectRoundSucceeded,
  runStampOutRunners,
  suiteStackCount,
  type EnvironmentsCopy,
  type RunnerOptions,
} from "../support/stamp-out-runners";
import { describeOnPostgres } from "./postgres";

const STACKS = suiteStackCount();
const RUNNERS = 4;
const API_KEY = "e2e-stamp-out-api-key-91c4";
const SUB_ORGANIZATIONS = Array.from(
  { length: STACKS },
  (_, i) => `sub-${String(i + 1).padStart(2, "0")}`,
);
/** A round of 20 stacks on a busy 2-core machine takes several minutes. */
const ROUND_TIMEOUT_MS = 1_500_000;

describeOnPostgres(
  `stamp-out of ${STACKS} stacks by separate runners on a PostgreSQL backend`,
  () => {
    let postgres: RunningPostgres;
    let emulator: RunningEmulator;
    let example: EnvironmentsCopy;
    let home: string;
    let runners: RunnerOptions;

    beforeAll(async () => {
      postgres = await startPostgres();
      emulator = await startEmulator({ apiKey: API_KEY, subOrganizationIds: SUB_ORGANIZATIONS });
      example = copyEnvironmentsExample();
      home = mkdtempSync(join(tmpdir(), "stamp-out-home-"));
      runners = {
        subOrganizations: SUB_ORGANIZATIONS,
        runners: RUNNERS,
        workDir: example.project,
        backendUrl: await postgres.createDatabase("stamp_out"),
        platform: { ...emulator, apiKey: API_KEY },
        env: pulumiEnv({
          ...process.env,
          PULUMI_HOME: home,
          PULUMI_CONFIG_PASSPHRASE: "stamp-out-e2e",
        }) as Record<string, string>,
      };
    });

    afterAll(async () => {
      await emulator?.stop();
      postgres?.stop();
      example?.remove();
      if (home !== undefined) rmSync(home, { recursive: true, force: true });
    });

    test(
      "every stack converges, each object is created once, and a second round changes nothing",
      async () => {
        const first = await runStampOutRunners(runners);
        expectRoundSucceeded(first, "create");
        const { objects, perStack, requests, createdTwice } = await expectEachObjectCreatedOnce(
          emulator,
          SUB_ORGANIZATIONS,
        );
        expect(perStack).toBe(Math.floor(perStack));
        // The ledger beside the state (rows of the same table): each object once, from 4 runners.
        const ledgerCreated = async () =>
          (await postgresStore(runners.backendUrl).readAll()).filter((e) => e.event === "created");
        const created = await ledgerCreated();
        const held = Object.values((await emulator.state()).organizations);
        const platformIds = held.flatMap((o) => [
          ...o.voices.map((v) => v.id),
          ...o.carriers.map((c) => c.id),
        ]);
        for (const id of platformIds) expect(created.filter((e) => e.id === id)).toHaveLength(1);
        expect(created).toHaveLength(objects.length);
        expect(new Set(created.map((e) => e.id)).size).toBe(created.length);

        // The stacks exist now: the second round does not ask for any to be created.
        const second = await runStampOutRunners({ ...runners, createStacks: false });
        expectRoundSucceeded(second, "same");
        await expectNothingChanged(emulator, objects);
        expect(await ledgerCreated()).toHaveLength(created.length);

        const seconds = (runs: typeof first) => Math.max(...runs.map((r) => r.seconds));
        console.log(
          [
            "stamp-out on PostgreSQL (issue 22):",
            `  stacks: ${STACKS}, runners at once: ${RUNNERS}, one process per stack`,
            `  objects on the platform: ${objects.length} (${perStack} per stack); create requests: ${requests.length}; created twice: ${createdTwice}`,
            `  the ledger: ${created.length} objects recorded, each once (${RUNNERS} runners at once)`,
            `  second round: ${second.length} stacks unchanged, 0 requests`,
            `  slowest runner: first round ${seconds(first).toFixed(1)} s, second ${seconds(second).toFixed(1)} s`,
          ].join("\n"),
        );
      },
      ROUND_TIMEOUT_MS * 2,
    );
  },
);
