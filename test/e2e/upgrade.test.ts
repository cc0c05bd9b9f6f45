/**
 * Upgrade: every state shape an earlier release wrote (the golden stacks of golden-stacks.ts,
 * one per release that added a shape) is previewed, updated, refreshed and destroyed by the
 * current build, as a user's stack is after `npm install pulumi-voice-platform@new`.
 *
 * @slow about 90 s: eight engine runs for each golden stack, one after another
 */
import { describeE2E, providerWarnings, recorder } from "./harness";
import { listGoldenStacks, restoreGoldenStack, type RestoredStack } from "./golden-stacks";
import { voicePlatform } from "./interrupted-run";
import { upWithPreview } from "../support/pulumi-up";
import { DERIVED_WEBHOOK_ID, WEBHOOK_ID } from "../../provider/resources/campaign-webhook";

const goldens = listGoldenStacks();

test("golden stacks are there to upgrade from", () => {
  expect(goldens.map((golden) => golden.meta.label)).toContain("0.1.0-first-demo");
});

for (const golden of goldens) {
  describeE2E(
    `upgrade from ${golden.meta.label} (package ${golden.meta.package.version}: ${golden.meta.covers})`,
    () => {
      let restored: RestoredStack;
      const platformResources = golden.meta.created - 1;

      beforeAll(async () => {
        restored = await restoreGoldenStack(golden);
      });

      afterAll(async () => {
        await restored?.close();
      });

      test("the current build previews the old stack: nothing to change, nothing asked of the platform", async () => {
        const preview = await restored.stack.preview(recorder().options);
        expect(preview.changeSummary).toEqual({ same: golden.meta.created });
        expect(await restored.emulator.newRequests()).toEqual([]);
      });

      test("the current build updates the old stack in place", async () => {
        const voiceRecordId = (await restored.stack.outputs()).voiceRecordId?.value;
        expect(typeof voiceRecordId).toBe("string");
        await restored.stack.setConfig("e2e:voiceName", { value: "Support agent, upgraded" });
        const up = await upWithPreview(restored.stack, recorder().options);
        expect(up.summary.result).toBe("succeeded");
        expect(up.summary.resourceChanges).toEqual({
          update: 1,
          same: golden.meta.created - 1,
        });
        const requests = await restored.emulator.newRequests();
        expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
          `PUT /voices/${String(voiceRecordId)} 200`,
        ]);
        expect(up.outputs.voiceRecordId?.value).toBe(voiceRecordId);
        expect(up.outputs.voiceName?.value).toBe("Support agent, upgraded");
      });

      test("the current build refreshes the stack without changes", async () => {
        const refresh = await restored.stack.refresh(recorder().options);
        expect(refresh.summary.result).toBe("succeeded");
        const changes = Object.keys(refresh.summary.resourceChanges ?? {});
        expect(changes.filter((kind) => kind !== "same")).toEqual([]);
        expect(await restored.emulator.newRequests()).toEqual([]);
        const preview = await restored.stack.preview(recorder().options);
        expect(preview.changeSummary).toEqual({ same: golden.meta.created });
      });

      test("rekey gives each webhook a random id for its derived one: no request, no replacement", async () => {
        const webhookIds = async () => {
          const exported = JSON.parse(await restored.project.exportStackText("dev")) as {
            deployment: { resources: { type: string; id?: string }[] };
          };
          return exported.deployment.resources
            .filter((r) => r.type.endsWith(":CampaignWebhook"))
            .map((r) => r.id!);
        };
        const derived = await webhookIds();
        expect(derived).toHaveLength(2);
        for (const id of derived) expect(id).toMatch(DERIVED_WEBHOOK_ID);
        // Until then, every preview says what to do.
        const warned = recorder();
        await restored.stack.preview(warned.options);
        // The program's webhook parameter "voice-platform" is a secret, blanked wherever it shows.
        expect(providerWarnings(warned).join("\n")).toMatch(
          /has an id that an earlier version derived from its inputs, secret ones included\. It keeps working; run `npx pulumi-(voice-platform|\[redacted\]) rekey` once/,
        );

        const env = { ...restored.project.env(), PULUMI_HOME: restored.project.pulumiHome };
        const result = await voicePlatform(restored.project, env, ["rekey", "--stack", "dev"]);
        expect(result).toMatchObject({ code: 0, stderr: "" });
        const rekeyed = await webhookIds();
        for (const [index, id] of rekeyed.entries()) {
          expect(id).toMatch(WEBHOOK_ID);
          expect(id.split("/")[0]).toBe(derived[index]!.split("/")[0]);
          expect(result.stdout).toContain(`its id is now ${id}`);
        }
        for (const id of derived) expect(result.stdout).not.toContain(id);
        expect(Object.values(await restored.stack.outputs()).map((o) => o.value)).toEqual(
          expect.arrayContaining(rekeyed),
        );

        const quiet = recorder();
        const preview = await restored.stack.preview(quiet.options);
        expect(preview.changeSummary).toEqual({ same: golden.meta.created });
        expect(providerWarnings(quiet).join("\n")).not.toMatch("derived from its inputs");
        const up = await upWithPreview(restored.stack, recorder().options);
        expect(up.summary.resourceChanges).toEqual({ same: golden.meta.created });
        expect(await restored.emulator.newRequests()).toEqual([]);
        const subscriptions = Object.values(
          (await restored.emulator.state()).organizations,
        ).flatMap((org) => Object.values(org.subscriptions).flat());
        expect(subscriptions).toHaveLength(2);
      });

      test("the current build destroys the stack, with the warnings", async () => {
        const transcript = recorder();
        const destroy = await restored.stack.destroy(transcript.options);
        expect(destroy.summary.result).toBe("succeeded");
        expect(destroy.summary.resourceChanges).toEqual({ delete: golden.meta.created });
        expect(providerWarnings(transcript)).toHaveLength(platformResources);
        for (const warning of providerWarnings(transcript)) {
          expect(warning).toMatch(/stays (on the platform|subscribed to campaign)/);
        }
        expect(await restored.stack.outputs()).toEqual({});
        expect(await restored.emulator.newRequests()).toEqual([]);
      });
    },
  );
}
