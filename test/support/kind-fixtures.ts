/**
 * The test facts of each resource kind that its descriptor cannot give: valid inputs (all, only
 * the required, ones it warns about), an id, an independent oracle of invalid inputs with its key
 * lists, the secret inputs, an arbitrary of valid inputs, and the body fields the emulator accepts. Each kind's are in test/fixtures/kinds/<kind-in-kebab-case>.ts,
 * found by the kind's name: the tests that walk every resource of provider/resources take them
 * from there, and a kind without one fails them with the file to add.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type fc from "fast-check";
import type { Inputs } from "../../provider/core/resource-descriptor";
import { kebabCase, resources } from "../../provider/resources";

export interface KindFixture {
  readonly kind: string;
  /** Valid inputs, with any overrides. */
  inputs(overrides?: Inputs): Inputs;
  /**
   * Valid inputs with only what a create needs: the schema's required inputs and what check asks
   * for besides (a voice's samples, unless it adopts an existing voice).
   */
  requiredOnly(): Inputs;
  /**
   * Valid inputs the kind warns about (a providerType it does not know, a plain-http URL), from
   * the field notes: the preview test makes each of them unknown in turn, and no warning may
   * quote it. Absent for a kind that warns about nothing.
   */
  readonly warned?: Inputs;
  /** An id the kind's objects can have. */
  readonly id: string;
  /** Valid inputs at random, for the property tests (test/unit/hostile-input.test.ts). */
  readonly valid: fc.Arbitrary<Inputs>;
  /**
   * The oracle: why an input is certainly invalid, restated from the API spec and the field
   * notes independently of the descriptor's zod schema. Empty for a valid input.
   */
  violations(input: Inputs): string[];
  /**
   * The input names the oracle knows, by where they stand: `""` for the top level,
   * `gateways[]` for the items of a list, `advancedWebhook.headers[]` deeper down.
   */
  readonly oracleKeys: Readonly<Record<string, readonly string[]>>;
  /**
   * The inputs whose values are secret, by path as descriptors name them
   * (`advancedWebhook.headers[].value`): restated from the API spec and the field notes (a
   * password, anything that can carry a token), so a descriptor that loses a secret fact fails.
   */
  readonly secretInputs: readonly string[];
  /**
   * The body fields the emulator accepts from this kind (provider/emulator), by the call its wire
   * facts name: `""` for a kind whose fields carry one wire name for its one body; no entry for a
   * kind that sends no body.
   */
  readonly emulatorBodies: Readonly<Record<string, readonly string[]>>;
}

const FOLDER = join(__dirname, "..", "fixtures", "kinds");

/** Where a kind's fixture is, from the repository's root. */
export function fixtureFile(kind: string): string {
  return `test/fixtures/kinds/${kebabCase(kind)}.ts`;
}

/** A kind's fixture; throws naming the kind and the file to add when there is none. */
export function fixtureOf(kind: string): KindFixture {
  const file = join(FOLDER, `${kebabCase(kind)}.ts`);
  if (!existsSync(file)) {
    throw new Error(
      `resource kind ${kind} has no test fixture: add ${fixtureFile(kind)} exporting \`fixture\` ` +
        '(docs/development.md, "Add a resource", says what it holds)',
    );
  }
  const { fixture } = require(file) as { fixture?: KindFixture };
  if (fixture?.kind !== kind) {
    throw new Error(`${fixtureFile(kind)} must export \`fixture\`, a KindFixture of kind ${kind}`);
  }
  return fixture;
}

/** Every kind of provider/resources with its descriptor and its fixture, for describe.each. */
export function everyKind() {
  return resources.map((descriptor) => [descriptor.type, descriptor] as const);
}
