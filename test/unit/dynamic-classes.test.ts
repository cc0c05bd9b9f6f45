/**
 * The classes a TypeScript program declares come from the list of descriptors: one per kind,
 * exported from the package entry beside its XArgs type, its outputs typed by the state the
 * descriptor stores (checked by the compiler: `npm run typecheck` covers this file).
 */
import type * as pulumi from "@pulumi/pulumi";
import * as entry from "../../provider";
import type { CampaignWebhook, SipCarrier, Voice } from "../../provider";
import { resources } from "../../provider/resources";
import * as runtime from "../../provider/runtime";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Value<T> = T extends pulumi.Output<infer U> ? U : never;

// Each line fails to compile when the output's type drifts from what the provider stores.
const typed: true[] = [
  true as Same<Value<Voice["name"]>, string>,
  true as Same<Value<Voice["voiceId"]>, string | undefined>,
  true as Same<Value<Voice["samples"]>[number], { name: string; sha256: string; size: number }>,
  true as Same<Value<Voice["clonedVoices"]>[number]["voiceId"], string | undefined>,
  true as Same<Value<SipCarrier["carrierId"]>, string>,
  true as Same<Value<SipCarrier["registerPassword"]>, string | undefined>,
  true as Same<Value<CampaignWebhook["data"]>, boolean | undefined>,
];

test("the output types hold", () => {
  expect(typed.every(Boolean)).toBe(true);
});

test.each(resources.map((descriptor) => descriptor.type))(
  "%s: the package exports its class, and the runtime entry its handlers",
  (kind) => {
    expect(typeof (entry as Record<string, unknown>)[kind]).toBe("function");
    expect(Object.keys(runtime[kind]).sort()).toEqual(
      ["check", "create", "delete", "diff", "read", "update"].sort(),
    );
  },
);
