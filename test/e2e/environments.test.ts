/**
 * Environment replication: one project, two stacks (dev and prod), each pointed by its own stack
 * config at its own platform (two emulators, so the base URLs really differ), API key and
 * sub-organization. Both deploy at the same time; each platform ends up holding only its own
 * stack's objects, all under the right sub-organization.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import {
  startEmulator,
  type OrganizationState,
  type RunningEmulator,
} from "../../provider/emulator";
import { describeE2E, E2EProject, recorder } from "./harness";
import { upWithPreview } from "../support/pulumi-up";

const ORGANIZATION = "org_acme";

interface Environment {
  name: "dev" | "prod";
  apiKey: string;
  subOrganizationId: string;
  emulator: RunningEmulator;
  stack: Stack;
}

describeE2E("dev and prod stacks of one project on two platforms", () => {
  let project: E2EProject;
  const environments: Environment[] = [];

  beforeAll(async () => {
    project = await E2EProject.create();
    for (const name of ["dev", "prod"] as const) {
      const apiKey = `e2e-${name}-api-key-4f2a`;
      const subOrganizationId = `sub_${name}_team`;
      const emulator = await startEmulator({
        organizations: [{ id: ORGANIZATION, apiKey, subOrganizationIds: [subOrganizationId] }],
      });
      const stack = await project.stack(name, {
        config: {
          "voiceplatform:apiKey": { value: apiKey, secret: true },
          "voiceplatform:baseUrl": { value: emulator.baseUrl },
          "voiceplatform:campaignsBaseUrl": { value: emulator.campaignsBaseUrl },
          "voiceplatform:subOrganizationId": { value: subOrganizationId },
          "e2e:voiceName": { value: `Support agent (${name})` },
          "e2e:carrierName": { value: `${name}-trunk` },
          "e2e:sipPassword": { value: `e2e-${name}-sip-password`, secret: true },
          "e2e:crmToken": { value: `e2e-${name}-crm-token`, secret: true },
        },
      });
      environments.push({ name, apiKey, subOrganizationId, emulator, stack });
    }
  });

  afterAll(async () => {
    for (const environment of environments) await environment.emulator.stop();
    await project?.remove();
  });

  async function held(environment: Environment): Promise<OrganizationState> {
    const state = await environment.emulator.state();
    expect(Object.keys(state.organizations)).toEqual([ORGANIZATION]);
    return state.organizations[ORGANIZATION]!;
  }

  test("both stacks deploy side by side, each to its own platform and sub-organization", async () => {
    expect(environments[0]!.emulator.baseUrl).not.toBe(environments[1]!.emulator.baseUrl);
    const ups = await Promise.all(
      environments.map((e) => upWithPreview(e.stack, recorder().options)),
    );
    for (const up of ups) {
      expect(up.summary.result).toBe("succeeded");
      expect(up.summary.resourceChanges).toEqual({ create: 5 });
    }

    for (const [index, environment] of environments.entries()) {
      const objects = await held(environment);
      const sub = environment.subOrganizationId;
      expect(objects.voices.map((v) => [v.name, v.subOrganizationId])).toEqual([
        [`Support agent (${environment.name})`, sub],
      ]);
      expect(objects.carriers.map((c) => [c.name, c.subOrganizationId])).toEqual([
        [`${environment.name}-trunk`, sub],
      ]);
      const subscriptions = Object.values(objects.subscriptions).flat();
      expect(subscriptions).toHaveLength(2);
      for (const subscription of subscriptions) expect(subscription.subOrganizationId).toBe(sub);

      // Every request of this stack went to this platform, for this sub-organization.
      const requests = await environment.emulator.requests();
      expect(requests).toHaveLength(4);
      for (const request of requests) {
        expect(request.headers["x-sub-organization-id"]).toBe(sub);
        expect(request.status).toBeLessThan(300);
      }

      const outputs = ups[index]!.outputs;
      expect(outputs.voiceRecordId?.value).toBe(objects.voices[0]!.id);
      expect(outputs.carrierId?.value).toBe(objects.carriers[0]!.id);
    }

    // The sub-organization went into each resource's state: it is part of what identifies it.
    for (const environment of environments) {
      const exported = JSON.parse(await project.exportStackText(environment.name)) as {
        deployment: { resources: { type: string; outputs?: Record<string, unknown> }[] };
      };
      const dynamic = exported.deployment.resources.filter((r) =>
        r.type.startsWith("pulumi-nodejs:dynamic/"),
      );
      expect(dynamic).toHaveLength(4);
      for (const resource of dynamic) {
        expect(resource.outputs?.subOrganizationId).toBe(environment.subOrganizationId);
      }
    }
  });

  test("each stack previews with no changes, then both are destroyed", async () => {
    for (const environment of environments) {
      const preview = await environment.stack.preview(recorder().options);
      expect(preview.changeSummary).toEqual({ same: 5 });
    }
    const destroys = await Promise.all(environments.map((e) => e.stack.destroy()));
    for (const destroy of destroys) {
      expect(destroy.summary.result).toBe("succeeded");
      expect(destroy.summary.resourceChanges).toEqual({ delete: 5 });
    }
    for (const environment of environments) {
      expect(await environment.stack.outputs()).toEqual({});
      // Previews and destroys ask nothing of the platform.
      expect(await environment.emulator.requests()).toHaveLength(4);
    }
  });
});
