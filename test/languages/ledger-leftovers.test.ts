/**
 * Nothing the platform keeps is lost from sight (issue 44), under the real CLI through the plugin
 * (Pulumi YAML programs): a seeded random sequence of operations over 3 stacks of one project on
 * the file backend, then on an S3-compatible one (moto): `up` with carriers added, renamed
 * (replaced), removed, marked `retainOnDelete` and then removed, `destroy`, `stack rm`,
 * `state delete`, and a SIGKILLed `up` followed by `preflight` and `recover`. After each step
 * `pulumi-voice-platform leftovers --json` must list exactly the carriers the emulator holds that
 * no stack's state holds: 0 missing, 0 extra. Then a leftover is adopted through the import file
 * the command writes (no change, no request) and another settled (it leaves the list).
 *
 * CI runs every operation once on each backend, on stacks the seed picks (`COVER`);
 * `npm run test:ledger-soak` runs 20 seeded random steps on each instead, the long interleavings.
 *
 * @slow about 2 minutes: some 25 pulumi commands and a leftovers read after each
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { seededRandom } from "../../provider/emulator/seeded-random";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { leaksOf } from "../support/secret-leaks";
import { backendRequirement, startMoto, type ThrowawayBackend } from "../support/throwaway-backend";
import { cli } from "../e2e/harness";
import { changeSummary, YamlStack } from "./yaml-stack";

const { describe: describeYaml } = requirePulumiCli({
  languageHosts: ["yaml"],
  purpose: "the ledger of objects left on the platform",
});

const API_KEY = "ledger-sequence-apikey-7Hq2-distinctive";
/** Random steps per backend, when set; otherwise the covering sequence. */
const STEPS =
  process.env.VOICEPLATFORM_LEDGER_STEPS === undefined
    ? undefined
    : Number(process.env.VOICEPLATFORM_LEDGER_STEPS);
/**
 * Every operation once, each where it has a carrier to act on: six adds, two to each stack, leave
 * at least one carrier on two stacks after the four operations that each take one, for the
 * destroy and the stack rm.
 */
const COVER = [
  "add",
  "add",
  "add",
  "add",
  "add",
  "add",
  "rename",
  "remove",
  "retain",
  "state-delete",
  "killed-up",
  "destroy",
  "stack-rm",
] as const;
const SEED = 44;
const LATENCY_MS = 4000;

interface Carrier {
  name: string;
  retain: boolean;
}
type Model = Map<string, Carrier>;

function program(model: Model): string {
  const lines = ["name: ledger-sequence", "runtime: yaml", "resources:"];
  for (const [resource, carrier] of model) {
    // Each resource's own address: removing another leaves its gateways, and so it, unchanged.
    const octet = 10 + Number(/^r(\d+)$/.exec(resource)?.[1] ?? 0);
    lines.push(
      `  ${resource}:`,
      "    type: voiceplatform:index:SipCarrier",
      "    properties:",
      `      name: ${carrier.name}`,
      "      gateways:",
      `        - ipv4: 203.0.113.${octet}`,
      "          inbound: true",
    );
    if (carrier.retain) lines.push("    options:", "      retainOnDelete: true");
  }
  if (model.size === 0) lines.push("  {}");
  return `${lines.join("\n").replace("resources:\n  {}", "resources: {}")}\n`;
}

/** One backend's three stacks, each with its own program (written before each of its runs). */
class Sequence {
  readonly models = new Map<string, Model>();
  private counter = 0;
  constructor(
    readonly label: string,
    readonly stacks: YamlStack[],
    readonly emulator: RunningEmulator,
    readonly random: () => number,
  ) {
    for (const stack of stacks) this.models.set(stack.stack, new Map());
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  nextName(): string {
    this.counter += 1;
    return `r${this.counter}`;
  }

  async up(stack: YamlStack): Promise<string> {
    await stack.writeProgram(program(this.models.get(stack.stack)!));
    return (await stack.must(["up", "--yes", "--stack", stack.stack])).stdout;
  }

  /**
   * `pulumi preview --json` of the stack's next program read by `leftovers plan`: it names the
   * resource whose object the update will leave, counts it, and the preview sent nothing.
   */
  async planned(stack: YamlStack, resource: string, how: string): Promise<void> {
    await stack.writeProgram(program(this.models.get(stack.stack)!));
    await this.emulator.newRequests();
    const preview = await stack.must(["preview", "--json", "--stack", stack.stack]);
    const file = join(stack.dir, "preview.json");
    await writeFile(file, preview.stdout);
    const plan = await stack.tool(["leftovers", "plan", "--from", file]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain("this update will leave 1 object(s) on the platform");
    expect(plan.stdout).toMatch(new RegExp(`SipCarrier/\\S+ "${resource}": ${how}`));
    expect(await this.emulator.newRequests()).toEqual([]);
  }

  /** Carriers the emulator holds, and those any existing stack holds. */
  async truth(): Promise<{ onPlatform: Set<string>; held: Set<string> }> {
    const state = await this.emulator.state();
    const onPlatform = new Set(
      Object.values(state.organizations).flatMap((org) => org.carriers.map((c) => c.id)),
    );
    const held = new Set<string>();
    // The three stacks share a backend: one listing tells which of them exist.
    const listed = await this.stacks[0]!.pulumi(["stack", "ls", "--json"]);
    const names = (JSON.parse(listed.stdout || "[]") as { name: string }[]).map((s) =>
      s.name.split("/").at(-1),
    );
    for (const stack of this.stacks) {
      if (!names.includes(stack.stack)) continue;
      const resources = await stack.resources();
      for (const r of Object.values(resources))
        if (r.type === "voiceplatform:index:SipCarrier" && r.id) held.add(r.id);
    }
    return { onPlatform, held };
  }

  /** leftovers --json must equal the emulator's carriers minus those in any stack's state. */
  async check(step: string): Promise<{ leftovers: number }> {
    const tool = await this.stacks[0]!.tool(["leftovers", "--json"]);
    expect([0, 1]).toContain(tool.code);
    const listed = JSON.parse(tool.stdout) as { leftovers: { kind: string; id: string }[] };
    const ids = new Set(listed.leftovers.map((l) => l.id));
    const { onPlatform, held } = await this.truth();
    const expected = [...onPlatform].filter((id) => !held.has(id));
    const missing = expected.filter((id) => !ids.has(id));
    const extra = [...ids].filter((id) => !expected.includes(id));
    console.log(
      `${this.label} ${step}: ${onPlatform.size} on the platform, ${held.size} in stacks, ${ids.size} leftovers; ${missing.length} missing, ${extra.length} extra`,
    );
    expect({ step, missing, extra }).toEqual({ step, missing: [], extra: [] });
    expect(tool.code).toBe(expected.length === 0 ? 0 : 1);
    return { leftovers: ids.size };
  }
}

async function configured(stack: YamlStack, emulator: RunningEmulator): Promise<YamlStack> {
  await stack.config({ "voiceplatform:apiKey": API_KEY }, true);
  await stack.config({
    "voiceplatform:baseUrl": emulator.baseUrl,
    "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
  });
  return stack;
}

/** `pulumi up` killed (SIGKILL) while its creates are held by the emulator; what it left settled. */
async function killedUpThenRecover(seq: Sequence, stack: YamlStack): Promise<void> {
  const model = seq.models.get(stack.stack)!;
  for (let i = 0; i < 3; i++) model.set(seq.nextName(), { name: `killed-${i}`, retain: false });
  await stack.writeProgram(program(model));
  await seq.emulator.addFault({
    method: "POST",
    path: "/organization/sip",
    times: 3,
    action: { kind: "latency", ms: LATENCY_MS },
  });
  const up = spawn(cli!.pulumi, ["up", "--yes", "--non-interactive", "--stack", stack.stack], {
    cwd: stack.dir,
    env: stack.environment(),
    stdio: "ignore",
  });
  const exited = new Promise((resolve) => up.on("exit", resolve));
  const started = Date.now();
  while (
    (await seq.emulator.requests({ method: "POST", path: "/organization/sip" })).filter(
      (r) => r.status === null,
    ).length < 3
  ) {
    if (Date.now() - started > 120_000) throw new Error("no creates in flight after 120 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  up.kill("SIGKILL");
  await exited;
  // The plugin ends once its engine is gone; the held creates end with it or answer first.
  await new Promise((resolve) => setTimeout(resolve, LATENCY_MS + 2000));
  await seq.emulator.clearFaults();
  await stack.pulumi(["cancel", "--yes", "--stack", stack.stack]);

  const preflight = await stack.tool(["preflight", "--stack", stack.stack]);
  expect(preflight.code).toBe(1);
  const cut = [
    ...preflight.stdout.matchAll(
      /^\s+(urn:pulumi:\S+)\n\s+The ledger shows its request was sent/gm,
    ),
  ].map((m) => m[1]!);
  const answered = [...preflight.stdout.matchAll(/The ledger holds the platform's answer/g)].length;
  // Every pending create is one the ledger saw: answered, or sent without an answer.
  const pending = [...preflight.stdout.matchAll(/^\d+\. create of SipCarrier/gm)].length;
  expect(cut.length + answered).toBe(pending);
  const recovered = await stack.tool([
    "recover",
    "--stack",
    stack.stack,
    ...cut.flatMap((urn) => ["--forget", urn]),
  ]);
  expect(recovered).toMatchObject({ code: 0 });
  console.log(
    `${seq.label} killed up: ${pending} pending creates, ${answered} recorded from the ledger (no id typed), ${cut.length} cut before their answer and forgotten`,
  );
  await seq.up(stack);
  const carriers = Object.values((await seq.emulator.state()).organizations).flatMap(
    (o) => o.carriers,
  );
  const killed = carriers.filter((c) => c.name.startsWith("killed-")).map((c) => c.name);
  // Each carrier once: recover recorded what the platform made, the next up made the rest.
  expect(killed.sort()).toEqual(["killed-0", "killed-1", "killed-2"]);
  for (const [resource, carrier] of model)
    if (carrier.name.startsWith("killed-")) model.delete(resource);
  await seq.up(stack);
}

type Operation = (typeof COVER)[number];

/** `steps` seeded random operations, a killed up in the middle; without `steps`, `COVER`. */
function operations(seq: Sequence, steps: number | undefined): Operation[] {
  if (steps === undefined) return [...COVER];
  const ops = ["add", "add", "rename", "remove", "retain", "state-delete", "destroy", "stack-rm"];
  return Array.from({ length: steps }, (_, index) =>
    index + 1 === Math.ceil(steps / 2) ? "killed-up" : (seq.pick(ops) as Operation),
  );
}

/**
 * A seeded stack for `op`. Covering, an add goes to the stack holding fewest carriers and every
 * other operation to one holding a carrier, so each acts on something.
 */
function stackFor(seq: Sequence, op: Operation, covering: boolean): YamlStack {
  const size = (stack: YamlStack) => seq.models.get(stack.stack)!.size;
  if (covering && op === "add") {
    const fewest = Math.min(...seq.stacks.map(size));
    return seq.pick(seq.stacks.filter((stack) => size(stack) === fewest));
  }
  const needsCarrier = covering
    ? op !== "killed-up"
    : ["rename", "remove", "retain", "state-delete"].includes(op);
  const holding = seq.stacks.filter((stack) => size(stack) > 0);
  return seq.pick(needsCarrier && holding.length > 0 ? holding : seq.stacks);
}

async function runSequence(seq: Sequence, steps: number | undefined): Promise<void> {
  for (const [index, planned] of operations(seq, steps).entries()) {
    const step = index + 1;
    const stack = stackFor(seq, planned, steps === undefined);
    const model = seq.models.get(stack.stack)!;
    const names = [...model.keys()];
    const op =
      names.length === 0 && planned !== "destroy" && planned !== "killed-up" ? "add" : planned;
    switch (op) {
      case "add":
        model.set(seq.nextName(), { name: `carrier-${step}`, retain: false });
        await seq.up(stack);
        break;
      case "rename": {
        const resource = seq.pick(names);
        model.set(resource, { ...model.get(resource)!, name: `renamed-${step}` });
        await seq.planned(stack, resource, "replaced");
        const out = await seq.up(stack);
        expect(changeSummary(out)).toMatchObject({ replaced: 1 });
        break;
      }
      case "remove": {
        const resource = seq.pick(names);
        model.delete(resource);
        await seq.planned(stack, resource, "removed from the program, or destroyed");
        await seq.up(stack);
        break;
      }
      case "retain": {
        // retainOnDelete, then the resource leaves the program: the engine skips Delete.
        const resource = seq.pick(names);
        model.set(resource, { ...model.get(resource)!, retain: true });
        await seq.up(stack);
        model.delete(resource);
        await seq.up(stack);
        break;
      }
      case "state-delete": {
        const resource = seq.pick(names);
        const urn = `urn:pulumi:${stack.stack}::ledger-sequence::voiceplatform:index:SipCarrier::${resource}`;
        await stack.must(["state", "delete", urn, "--yes", "--stack", stack.stack]);
        model.delete(resource);
        break;
      }
      case "destroy":
        await stack.writeProgram(program(model));
        await stack.must(["destroy", "--yes", "--stack", stack.stack]);
        model.clear();
        break;
      case "stack-rm":
        await stack.must(["stack", "rm", "--force", "--yes", stack.stack]);
        await stack.must(["stack", "init", stack.stack]);
        await configured(stack, seq.emulator);
        model.clear();
        break;
      case "killed-up":
        await killedUpThenRecover(seq, stack);
        break;
    }
    await seq.check(`step ${step} (${op} on ${stack.stack})`);
  }
}

describeYaml("the ledger lists exactly what the stacks left on the platform", () => {
  jest.setTimeout(900_000);
  let emulator: RunningEmulator;
  let first: YamlStack | undefined;
  let moto: ThrowawayBackend | undefined;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
  });
  afterAll(async () => {
    await first?.remove();
    await moto?.stop();
    await emulator?.stop();
  });

  test(`${STEPS === undefined ? "every operation" : `${STEPS} random operations`} (seed ${SEED}) on the file backend, then on an S3-compatible one: after each step 0 missing, 0 extra`, async () => {
    // Its leftovers reads the S3 ledger too: the project has the S3 client, as such a team's has.
    const project = await YamlStack.create(program(new Map()), {}, { backendClients: true });
    first = await configured(project, emulator);
    const fileStacks = [
      first,
      await configured(await first.otherStack("staging", {}), emulator),
      await configured(await first.otherStack("pr-7", {}), emulator),
    ];
    const random = seededRandom(SEED);
    const onFile = new Sequence("file backend", fileStacks, emulator, random);
    await runSequence(onFile, STEPS);

    const required = backendRequirement("s3");
    if (!required.available) throw new Error(required.missing);
    moto = await startMoto();
    const url = await moto.createStore("ledger-sequence");
    await emulator.reset();
    const s3Env = { ...moto.env, PULUMI_BACKEND_URL: url };
    const s3Stacks = [];
    for (const name of ["s3-dev", "s3-staging", "s3-pr-7"])
      s3Stacks.push(await configured(await first.otherStack(name, s3Env), emulator));
    const onS3 = new Sequence("S3 backend", s3Stacks, emulator, random);
    await runSequence(onS3, STEPS);

    const transcript = [...fileStacks, ...s3Stacks].flatMap((s) => s.transcript).join("\n");
    expect(leaksOf(transcript, { apiKey: API_KEY })).toEqual([]);
  });

  test("a leftover adopted through the import file the command writes: no change, no request; one settled leaves the list", async () => {
    const stack = first!;
    const model = new Map<string, Carrier>([["adoptable", { name: "adoptable", retain: false }]]);
    await stack.writeProgram(program(model));
    await stack.must(["up", "--yes"]);
    const id = (await stack.resources()).adoptable!.id!;
    await stack.must([
      "state",
      "delete",
      `urn:pulumi:dev::ledger-sequence::voiceplatform:index:SipCarrier::adoptable`,
      "--yes",
    ]);
    const file = join(stack.dir, "adopt.json");
    const written = await stack.tool([
      "leftovers",
      "--import-file",
      file,
      "--select",
      `SipCarrier/${id}`,
    ]);
    expect(written.code).toBe(1);
    await emulator.newRequests();
    const imported = await stack.importFile(file);
    expect(changeSummary(imported.stdout)).toMatchObject({ imported: 1 });
    // The printed code of such an import declares nothing but the type: pasted, no change.
    await writeFile(
      join(stack.dir, "Pulumi.yaml"),
      "name: ledger-sequence\nruntime: yaml\nresources:\n  adoptable:\n    type: voiceplatform:index:SipCarrier\n",
    );
    await stack.must(["preview", "--expect-no-changes"]);
    expect(await emulator.newRequests()).toEqual([]);
    const after = JSON.parse((await stack.tool(["leftovers", "--json"])).stdout) as {
      leftovers: { id: string }[];
    };
    expect(after.leftovers.map((l) => l.id)).not.toContain(id);

    const other = after.leftovers[0];
    if (other !== undefined) {
      const settled = await stack.tool([
        "leftovers",
        "settle",
        `SipCarrier/${other.id}`,
        "--reason",
        "deleted in the console",
      ]);
      expect(settled.code).toBe(0);
      const listed = JSON.parse((await stack.tool(["leftovers", "--json"])).stdout) as {
        leftovers: { id: string }[];
      };
      expect(listed.leftovers.map((l) => l.id)).not.toContain(other.id);
      const all = JSON.parse((await stack.tool(["leftovers", "--json", "--all"])).stdout) as {
        leftovers: { id: string; settled?: { reason: string } }[];
      };
      expect(all.leftovers.find((l) => l.id === other.id)?.settled?.reason).toBe(
        "deleted in the console",
      );
    }
  });
});
