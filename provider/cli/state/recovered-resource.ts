/**
 * Turning an interrupted create into the resource a finished create would have recorded. The
 * outputs come from each resource's own "state after create" function, the one its create
 * returns, applied to the inputs the engine stored with the pending operation (already checked
 * and normalized), so the next diff compares exactly what a finished create leaves.
 */
import { isDeepStrictEqual } from "node:util";
import type { Inputs } from "../../core/resource-descriptor";
import { hidden, withoutProvider } from "../../core/hidden-properties";
import { descriptorOf } from "../../resources";
import {
  containsSecret,
  isSecretEnvelope,
  plaintextSecret,
  type PendingOfPackage,
  type ResourceKind,
  type StateResource,
} from "./exported-state";

/**
 * Why `id` cannot be the platform's id of this resource, or undefined. The API does not document
 * the form of ids, so only what no id can be is refused for every kind: empty, surrounding or
 * inner whitespace and control characters (a copy-paste slip), or a URN. A kind whose id the
 * inputs decide (a webhook's derived id, an adopted carrier's) checks the rest itself.
 */
export function idProblem(kind: ResourceKind, id: string, inputs: Inputs): string | undefined {
  if (id.trim() === "") return "is empty: give the id the platform shows for this object";
  if (/[\s\p{Cc}]/u.test(id)) {
    return `${JSON.stringify(id)} contains whitespace or control characters, which no platform id has: copy the id alone`;
  }
  if (id.startsWith("urn:"))
    return `${JSON.stringify(id)} is a URN, not the platform's id of the object`;
  return descriptorOf(kind).recovery.idProblem?.(id, withoutProvider(inputs));
}

/** The id a create would record, when the (plaintext) inputs alone decide it. */
export function knownId(kind: ResourceKind, inputs: Inputs): string | undefined {
  return descriptorOf(kind).recovery.knownId?.(withoutProvider(inputs));
}

/**
 * The outputs a finished create would have returned, in plain values: the resource descriptor's
 * own stateAfterCreate, the function its create returns the state of. It runs in `projectDir`,
 * as the engine runs the provider, so a voice's relative sample paths resolve as they did.
 */
export async function outputsAfterCreate(
  kind: ResourceKind,
  inputs: Inputs,
  id: string,
  projectDir: string,
): Promise<Inputs> {
  const declared = withoutProvider(inputs);
  const { stateAfterCreate, recovery } = descriptorOf(kind);
  const state = await inDirectory(projectDir, () => stateAfterCreate(id, declared));
  // As the engine stores it: no undefined members.
  const outputs = JSON.parse(JSON.stringify(state)) as Inputs;
  for (const name of recovery.unsettledOutputs?.(declared) ?? []) delete outputs[name];
  Object.assign(outputs, hidden(inputs));
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
