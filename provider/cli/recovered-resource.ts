/**
 * Turning an interrupted create into the resource a finished create would have recorded. The
 * outputs come from each resource's own "state after create" function, the one its create
 * returns, applied to the inputs the engine stored with the pending operation (already checked
 * and normalized), so the next diff compares exactly what a finished create leaves.
 */
import { isDeepStrictEqual } from "node:util";
import type { Inputs, ResourceDefinition } from "../core/resource-definition";
import { PROVIDER_KEY } from "../dynamic/dynamic-adapter";
import { campaignWebhook, CampaignWebhookInputs, webhookId } from "../resources/campaign-webhook";
import { sipCarrier } from "../resources/sip-carrier";
import { voice } from "../resources/voice";
import {
  containsSecret,
  isSecretEnvelope,
  plaintextSecret,
  type PendingOfPackage,
  type ResourceKind,
  type StateResource,
} from "./exported-state";

const definitions: Record<ResourceKind, ResourceDefinition<object>> = {
  Voice: voice,
  SipCarrier: sipCarrier,
  CampaignWebhook: campaignWebhook,
};

/** The declared inputs, without the dynamic provider's `__provider`. */
function declaredInputs(inputs: Inputs): Inputs {
  const { [PROVIDER_KEY]: _provider, ...declared } = inputs;
  return declared;
}

/** What a webhookId looks like: the campaign's ObjectId, a slash, 16 hex digits of a sha256. */
const WEBHOOK_ID = /^([0-9a-f]{24})\/[0-9a-f]{16}$/;

/**
 * Why `id` cannot be the platform's id of this resource, or undefined. The API does not document
 * the form of voice and carrier ids, so only what no id can be is refused for them: empty,
 * surrounding or inner whitespace and control characters (a copy-paste slip), or a URN. A
 * campaign webhook's id is not the platform's: the provider derives it from the inputs
 * (webhookId), so it must be exactly that. An adopted carrier's create records existingCarrierId
 * without a call, so that is its only possible id.
 */
export function idProblem(kind: ResourceKind, id: string, inputs: Inputs): string | undefined {
  if (id.trim() === "") return "is empty: give the id the platform shows for this object";
  if (/[\s\p{Cc}]/u.test(id)) {
    return `${JSON.stringify(id)} contains whitespace or control characters, which no platform id has: copy the id alone`;
  }
  if (id.startsWith("urn:"))
    return `${JSON.stringify(id)} is a URN, not the platform's id of the object`;
  if (kind === "SipCarrier") {
    const existing = inputs.existingCarrierId;
    if (typeof existing === "string" && id !== existing) {
      return `is ${JSON.stringify(id)}, but this carrier is declared with existingCarrierId ${JSON.stringify(existing)}, which its create records without a call: use that id`;
    }
  }
  if (kind === "CampaignWebhook") {
    const expected = expectedWebhookId(inputs);
    if (!WEBHOOK_ID.test(id)) {
      return `${JSON.stringify(id)} is not a campaign webhook id (<24-hex campaignId>/<16 hex>, as the provider derives it)${expected === undefined ? "" : `: this subscription's id is ${expected}`}`;
    }
    if (expected !== undefined && id !== expected) {
      return `is ${id}, but the id the provider derives from this subscription's inputs is ${expected}: use that one`;
    }
  }
  return undefined;
}

/** The id a create would give, when the inputs alone decide it; undefined when they do not parse. */
export function expectedWebhookId(inputs: Inputs): string | undefined {
  const parsed = CampaignWebhookInputs.safeParse(declaredInputs(inputs));
  return parsed.success ? webhookId(parsed.data) : undefined;
}

/**
 * The outputs a finished create would have returned, in plain values: the resource definition's
 * own stateAfterCreate, the function its create returns the state of. It runs in `projectDir`,
 * as the engine runs the provider, so a voice's relative sample paths resolve as they did.
 */
export async function outputsAfterCreate(
  kind: ResourceKind,
  inputs: Inputs,
  id: string,
  projectDir: string,
): Promise<Inputs> {
  const declared = declaredInputs(inputs);
  const state = await inDirectory(projectDir, () =>
    definitions[kind].stateAfterCreate(id, declared),
  );
  // As the engine stores it: no undefined members.
  const outputs = JSON.parse(JSON.stringify(state)) as Inputs;
  if (kind === "Voice" && declared.isMultilingual !== undefined) {
    // A clone sets isMultilingual with a second call, which an interrupted create may never have
    // made: recorded as unknown, as create itself records it when that call fails, so the next
    // `up` sends it (one PUT, in place) instead of assuming it.
    delete outputs.isMultilingual;
  }
  if (inputs[PROVIDER_KEY] !== undefined) outputs[PROVIDER_KEY] = inputs[PROVIDER_KEY];
  return outputs;
}

async function inDirectory<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  process.chdir(dir);
  try {
    return await work();
  } finally {
    process.chdir(before);
  }
}

/**
 * Marks outputs secret as the engine does after a create: an output whose same-named input holds
 * a secret is secret (recursing into objects that are not secret themselves, as the engine's
 * annotateSecrets does), and so is each top-level additionalSecretOutputs name. Where the output
 * equals the input, the input's stored ciphertext is reused, so no plaintext is written; any other
 * secret goes out as plaintext, which `stack import` encrypts with the stack's secrets provider.
 */
export function sealOutputs(
  outputs: Inputs,
  storedInputs: Inputs,
  plainInputs: Inputs,
  additionalSecretOutputs: readonly string[] = [],
): Inputs {
  const sealed: Inputs = {};
  for (const [key, value] of Object.entries(outputs)) {
    let result = Object.hasOwn(storedInputs, key)
      ? annotate(value, storedInputs[key], plainInputs[key])
      : value;
    if (additionalSecretOutputs.includes(key) && !isSecretEnvelope(result)) {
      result = plaintextSecret(value);
    }
    sealed[key] = result;
  }
  return sealed;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === "object" && !Array.isArray(value) && !isSecretEnvelope(value)
  );
}

function annotate(output: unknown, stored: unknown, plain: unknown): unknown {
  if (isPlainObject(output) && isPlainObject(stored)) {
    const plainObject = isPlainObject(plain) ? plain : {};
    return Object.fromEntries(
      Object.entries(output).map(([key, inner]) => [
        key,
        Object.hasOwn(stored, key) ? annotate(inner, stored[key], plainObject[key]) : inner,
      ]),
    );
  }
  if (!containsSecret(stored)) return output;
  if (
    isSecretEnvelope(stored) &&
    stored.ciphertext !== undefined &&
    isDeepStrictEqual(output, plain)
  ) {
    return stored;
  }
  return plaintextSecret(output);
}

/** The pending create's resource, recorded with its id and outputs. */
export function recordedResource(
  pending: PendingOfPackage,
  id: string,
  outputs: Inputs,
  now: Date,
): StateResource {
  const stamp = now.toISOString();
  return { ...pending.resource, id, outputs, created: stamp, modified: stamp };
}
