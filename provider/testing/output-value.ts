/**
 * An output's value as a promise that settles either way: `output.apply(resolve)` never calls
 * back when the resource's registration failed (an input check refused), so a test awaiting it
 * waits until jest's timeout. This one rejects with the refusal, for `await expect(...).rejects`.
 */
import type * as pulumi from "@pulumi/pulumi";

/** Output's own promise of its value: not in its published type, present in every 3.x release. */
interface OutputPromise<T> {
  promise(withUnknowns?: boolean): Promise<T>;
}

export function outputValue<T>(output: pulumi.Output<T>): Promise<T> {
  return (output as unknown as OutputPromise<T>).promise();
}
