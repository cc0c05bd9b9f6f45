/**
 * `preflight`: exit 0 when the stack has no pending operation on this package's resources,
 * otherwise print each one with what to look for on the platform and the command that settles it.
 */
import { expectedWebhookId } from "./recovered-resource";
import {
  containsSecret,
  pendingOperations,
  revealed,
  stackOfUrn,
  type ExportedStack,
} from "./exported-state";
import { preflightReport } from "./pending-report";
import { exportStack, targetFlags, type StackTarget } from "./pulumi-stack";

export interface CommandResult {
  readonly exitCode: number;
  readonly text: string;
}

export async function preflight(target: StackTarget): Promise<CommandResult> {
  const exported = await exportStack(target);
  const pending = pendingOperations(exported.deployment);
  const knownIds = new Map<string, string>();
  let idNote: string | undefined;
  const webhooks = pending.ours.filter(
    (op) => op.operation === "creating" && op.kind === "CampaignWebhook",
  );
  // A webhook's id comes from its inputs. An advanced one's request is a secret, so working its id
  // out needs the decrypted state; only the id (which holds no header value) leaves this function.
  let plain: ExportedStack | undefined;
  if (webhooks.some((op) => containsSecret(op.resource.inputs))) {
    plain = await exportStack(target, { showSecrets: true }).catch((error: Error) => {
      idNote = `The ids of advanced webhooks need the decrypted state, which could not be read (${error.message.split("\n")[0]}); recover names the expected id when given a wrong one.`;
      return undefined;
    });
  }
  for (const op of webhooks) {
    const source = containsSecret(op.resource.inputs)
      ? plain?.deployment.pending_operations?.find((p) => p.resource.urn === op.urn)?.resource
          .inputs
      : op.resource.inputs;
    const id =
      source === undefined
        ? undefined
        : expectedWebhookId(revealed(source) as Record<string, unknown>);
    if (id !== undefined) knownIds.set(op.urn, id);
  }
  for (const op of pending.ours) {
    const inputs = op.resource.inputs ?? {};
    const existing = op.kind === "SipCarrier" ? inputs.existingCarrierId : undefined;
    if (op.operation === "creating" && typeof existing === "string") knownIds.set(op.urn, existing);
  }
  const anyUrn = pending.ours[0]?.urn ?? exported.deployment.resources?.[0]?.urn;
  const stackName = target.stack ?? (anyUrn === undefined ? undefined : stackOfUrn(anyUrn));
  const text = preflightReport(pending, {
    stackLabel: stackName === undefined ? "The current stack" : `Stack ${stackName}`,
    flags: targetFlags(target),
    knownIds,
    ...(idNote === undefined ? {} : { idNote }),
  });
  return { exitCode: pending.ours.length === 0 ? 0 : 1, text };
}
