import { redactSecrets } from "./redaction";

/**
 * Thrown when the platform created an object but a later step failed (the follow-up PUT, an
 * unusable answer). The engine reads `id`, `properties` and `reasons` from a create error and
 * records the resource as created, so the object is neither lost nor created again.
 */
export class IncompleteCreateError extends Error {
  override readonly name = "IncompleteCreateError";
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];

  constructor(id: string, properties: Record<string, unknown>, cause: Error) {
    const reason = redactSecrets(
      `created ${id} on the platform, then: ${cause.message}. The resource is recorded in the ` +
        `stack; the next \`pulumi up\` finishes it`,
    );
    super(reason, { cause });
    this.id = id;
    this.properties = properties;
    this.reasons = [reason];
  }
}
