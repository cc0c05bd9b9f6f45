/**
 * Section 7: what the ledger (provider/ledger/) costs per create. The same carrier creates through
 * the served resource in this process against an emulator in its own process, with the folder
 * ledger a file backend gets and with none, interleaved A/B; and the bytes each create adds to the
 * ledger (its intent and its `created` entry).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { noLedger } from "../../provider/core/object-ledger";
import { servedResource } from "../../provider/core/served-resource";
import { LEDGER_PREFIX } from "../../provider/ledger/ledger-entry";
import { providerLedger } from "../../provider/ledger/provider-ledger";
import { sipCarrier } from "../../provider/resources/sip-carrier";
import { resetProcessState } from "../../provider/settings/process-state";
import { configureAgainst } from "../provider/emulator-harness";
import { startEmulatorProcess } from "./emulator-process";
import { carrierInputs } from "./resources";
import { median, p90, round } from "./stats";
import { callContext } from "../support/call-context";

export interface LedgerCost {
  readonly creates: number;
  /** Milliseconds per create, median and p90, with the folder ledger and with none. */
  readonly withLedger: { median: number; p90: number };
  readonly without: { median: number; p90: number };
  /** What the ledger adds to a create's median, in ms. */
  readonly addedMs: number;
  readonly bytesPerCreate: number;
}

export async function measureLedgerCost(creates: number): Promise<LedgerCost> {
  const emulator = await startEmulatorProcess();
  const folder = mkdtempSync(join(tmpdir(), "bench-ledger-"));
  const saved = process.env.VOICEPLATFORM_LEDGER;
  process.env.VOICEPLATFORM_LEDGER = folder;
  try {
    await resetProcessState();
    configureAgainst(emulator);
    const arms = {
      withLedger: servedResource(sipCarrier, providerLedger),
      without: servedResource(sipCarrier, noLedger),
    };
    const times = { withLedger: [] as number[], without: [] as number[] };
    const inputs = (await arms.without.check(callContext(), {}, carrierInputs(0) as never)).inputs;
    for (let i = 0; i < creates + 2; i++) {
      const order =
        i % 2 === 0 ? (["withLedger", "without"] as const) : (["without", "withLedger"] as const);
      for (const arm of order) {
        const urn = `urn:pulumi:bench::ledger::voiceplatform:index:SipCarrier::c${i}-${arm}`;
        const start = performance.now();
        await arms[arm].create(callContext(urn), inputs);
        // The first two rounds warm the connection and the module loads.
        if (i >= 2) times[arm].push(performance.now() - start);
      }
    }
    const dir = join(folder, LEDGER_PREFIX);
    const bytes = readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    const timing = (values: number[]) => ({
      median: round(median(values), 3),
      p90: round(p90(values), 3),
    });
    const withLedger = timing(times.withLedger);
    const without = timing(times.without);
    return {
      creates,
      withLedger,
      without,
      addedMs: round(withLedger.median - without.median, 3),
      bytesPerCreate: Math.round(bytes / (creates + 2)),
    };
  } finally {
    if (saved === undefined) delete process.env.VOICEPLATFORM_LEDGER;
    else process.env.VOICEPLATFORM_LEDGER = saved;
    rmSync(folder, { recursive: true, force: true });
    await resetProcessState();
    await emulator.stop();
  }
}
