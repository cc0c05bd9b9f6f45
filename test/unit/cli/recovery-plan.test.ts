import { pendingOperations } from "../../../provider/cli/state/exported-state";
import { kindOfType } from "../../../provider/schema/type-tokens";
import { editedDeployment, planRecovery } from "../../../provider/cli/state/recovery-plan";
import { RecoveryRefused } from "../../../provider/cli/errors";
import {
  carrierInputs,
  deployment,
  pendingCreate,
  recorded,
  urnOf,
  webhookInputs,
} from "../../support/state-builders";

describe("kindOfType", () => {
  it("knows the dynamic and the plugin type tokens of the three resources, and nothing else", () => {
    expect(kindOfType("pulumi-nodejs:dynamic/voiceplatform:SipCarrier")).toEqual({
      kind: "SipCarrier",
      frontEnd: "dynamic",
    });
    expect(kindOfType("voiceplatform:index:CampaignWebhook")).toEqual({
      kind: "CampaignWebhook",
      frontEnd: "plugin",
    });
    expect(kindOfType("voiceplatform:index:Voice")?.kind).toBe("Voice");
    expect(kindOfType("pulumi-nodejs:dynamic:Resource")).toBeUndefined();
    expect(kindOfType("aws:s3/bucket:Bucket")).toBeUndefined();
  });
});

describe("pendingOperations", () => {
  it("separates this package's pending operations from other packages'", () => {
    const state = deployment([
      pendingCreate("SipCarrier", "a", carrierInputs("a")),
      pendingCreate("aws:s3/bucket:Bucket", "logs", {}),
      pendingCreate("Voice", "v", { name: "v" }, { frontEnd: "plugin", type: "updating" }),
    ]);
    const { ours, others } = pendingOperations(state);
    expect(ours.map((op) => [op.kind, op.frontEnd, op.operation])).toEqual([
      ["SipCarrier", "dynamic", "creating"],
      ["Voice", "plugin", "updating"],
    ]);
    expect(others).toEqual([
      {
        urn: urnOf("aws:s3/bucket:Bucket", "logs"),
        operation: "creating",
        type: "aws:s3/bucket:Bucket",
      },
    ]);
  });
});

describe("planRecovery", () => {
  const a = pendingCreate("SipCarrier", "a", carrierInputs("a"));
  const b = pendingCreate("SipCarrier", "b", carrierInputs("b"));
  const update = pendingCreate("Voice", "v", { name: "v" }, { type: "updating" });
  const bucket = pendingCreate("aws:s3/bucket:Bucket", "logs", {});
  const state = deployment([a, b, update, bucket], [recorded("SipCarrier", "c", "carrier-c")]);

  it("splits URN=ID at the pending URN, so an id may hold '='", () => {
    const plan = planRecovery(state, [`${a.resource.urn}=id==`], [b.resource.urn]);
    expect(plan.record.map((r) => [r.pending.urn, r.id])).toEqual([[a.resource.urn, "id=="]]);
    expect(plan.forget.map((op) => op.urn)).toEqual([b.resource.urn]);
    // Dropped by the import anyway, and said so.
    expect(plan.alsoDropped.map((op) => op.urn)).toEqual([
      update.resource.urn,
      bucket.resource.urn,
    ]);
  });

  it("refuses an id that would change the address of later calls", () => {
    expect(() =>
      planRecovery(state, [`${a.resource.urn}=..`, `${b.resource.urn}=%2e`], []),
    ).toThrow(
      /the id "\.\." given for .*::a must not be "\.\."[\s\S]*the id "%2e" given for .*::b/,
    );
  });

  it("clears a pending update named with --forget", () => {
    const plan = planRecovery(state, [], [a.resource.urn, b.resource.urn, update.resource.urn]);
    expect(plan.forget.map((op) => op.operation)).toEqual(["creating", "creating", "updating"]);
    expect(plan.alsoDropped.map((op) => op.urn)).toEqual([bucket.resource.urn]);
  });

  function refusal(assignments: string[], forget: string[]): string {
    try {
      planRecovery(state, assignments, forget);
    } catch (error) {
      expect(error).toBeInstanceOf(RecoveryRefused);
      return (error as Error).message;
    }
    throw new Error("not refused");
  }

  it("refuses to leave an interrupted create unnamed, since the import would drop it", () => {
    const message = refusal([`${a.resource.urn}=x`], []);
    expect(message).toMatch(`${b.resource.urn} is an interrupted create`);
    expect(message).toMatch("not named on the command line");
    expect(message).toMatch(`Add ${b.resource.urn}=<id>`);
    expect(message).toMatch(`--forget ${b.resource.urn}`);
  });

  it("refuses what is not a pending create of this package, saying what it is", () => {
    const message = refusal(
      [
        `${a.resource.urn}=x`,
        `${bucket.resource.urn}=bucket-1`,
        `${urnOf("SipCarrier", "c")}=carrier-c`,
        `${update.resource.urn}=v1`,
        `${urnOf("SipCarrier", "nope")}=x`,
      ],
      [b.resource.urn],
    );
    expect(message).toMatch(`${bucket.resource.urn} is a pending creating of aws:s3/bucket:Bucket`);
    expect(message).toMatch("not a resource of pulumi-voice-platform");
    expect(message).toMatch(`${urnOf("SipCarrier", "c")} is already recorded (id "carrier-c")`);
    expect(message).toMatch(`${update.resource.urn} is a pending updating`);
    expect(message).toMatch(`--forget ${update.resource.urn}`);
    expect(message).toMatch(`"${urnOf("SipCarrier", "nope")}=x" names no pending create`);
    expect(message).toMatch("`pulumi-voice-platform preflight`");
  });

  it("refuses a URN named twice", () => {
    expect(refusal([`${a.resource.urn}=x`, `${b.resource.urn}=y`], [a.resource.urn])).toMatch(
      `${a.resource.urn} is named twice (URN=ID and --forget)`,
    );
  });
});

describe("editedDeployment", () => {
  it("appends recovered resources and drops every pending operation", () => {
    const a = pendingCreate("SipCarrier", "a", carrierInputs("a"));
    const state = deployment([a]);
    const resource = { ...a.resource, id: "carrier-a", outputs: { name: "a" } };
    const edited = editedDeployment(state, [resource]);
    expect(edited.pending_operations).toEqual([]);
    expect(edited.resources?.at(-1)).toEqual(resource);
    expect(edited.resources).toHaveLength(2);
    // The input is left as it was (it is the backup).
    expect(state.pending_operations).toHaveLength(1);
  });

  it("marks the old resource of an interrupted replacement for deletion, right before the new one", () => {
    const old = recorded("CampaignWebhook", "hook", "65a1f0c2e4b0a1b2c3d4e5f6/0123456789abcdef");
    const later = recorded("SipCarrier", "later", "carrier-later");
    const replacement = pendingCreate("CampaignWebhook", "hook", webhookInputs());
    const state = deployment([replacement], [old, later]);
    const resource = { ...replacement.resource, id: "new-id", outputs: {} };
    const edited = editedDeployment(state, [resource]);
    expect(edited.resources?.map((r) => [r.urn, r.id, r.delete])).toEqual([
      [state.resources![0]!.urn, undefined, undefined],
      [old.urn, old.id, true],
      [old.urn, "new-id", undefined],
      [later.urn, later.id, undefined],
    ]);
  });
});
