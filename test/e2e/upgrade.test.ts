/**
 * Upgrade: every state shape an earlier release wrote (the golden stacks of golden-stacks.ts,
 * one per release that added a shape) is previewed, updated, refreshed and destroyed by the
 * current build, as a user's stack is after `npm install pulumi-voice-platform@new`.
 */
import { describeE2E, providerWarnings, recorder } from "./harness";
import { listGoldenStacks, restoreGoldenStack, type RestoredStack } from "./golden-stacks";
import { upWithPreview } from "../support/pulumi-up";

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
        expect(await restored.emulator.client.newRequests()).toEqual([]);
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
        const requests = await restored.emulator.client.newRequests();
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
        expect(await restored.emulator.client.newRequests()).toEqual([]);
        const preview = await restored.stack.preview(recorder().options);
        expect(preview.changeSummary).toEqual({ same: golden.meta.created });
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
        expect(await restored.emulator.client.newRequests()).toEqual([]);
      });
    },
  );
}
