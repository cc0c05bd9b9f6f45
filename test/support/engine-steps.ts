/**
 * The sequences of provider calls the engine makes for `pulumi up` and `destroy`, over one
 * dynamic-provider or provider-plugin process: check then create; check, diff, then update;
 * delete with the stored outputs. For load tests and benchmarks that drive many resources
 * without the CLI.
 */
import type { DiffResult, PropertyMap, ProviderProcess } from "./provider-process";
import { resourceUrn, type ResourceKind } from "./serialized-provider";

/** A resource as the engine keeps it in state. */
export interface ManagedResource {
  readonly kind: ResourceKind;
  readonly name: string;
  readonly urn: string;
  readonly id: string;
  /** The checked inputs, `__provider` included. */
  readonly inputs: PropertyMap;
  /** The outputs create or update returned, `__provider` included. */
  readonly outputs: PropertyMap;
}

/** Check failures, which the engine shows instead of going on. */
export class CheckFailedError extends Error {
  override name = "CheckFailedError";

  constructor(
    readonly urn: string,
    readonly failures: { property: string; reason: string }[],
  ) {
    super(`check of ${urn} failed: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
  }
}

export class EngineSteps {
  /**
   * `providers` holds the `__provider` text of each kind (see `serializedProviders`), or is
   * "plugin" for the provider plugin, whose resources carry none and have their own type tokens.
   */
  constructor(
    readonly provider: ProviderProcess,
    readonly providers: Record<ResourceKind, string> | "plugin",
  ) {}

  private urn(kind: ResourceKind, name: string): string {
    return this.providers === "plugin"
      ? `urn:pulumi:test::test::voiceplatform:index:${kind}::${name}`
      : resourceUrn(kind, name);
  }

  /** Runs check with `__provider` attached, as the SDK registers it; throws on failures. */
  async check(
    kind: ResourceKind,
    name: string,
    news: PropertyMap,
    olds: PropertyMap = {},
  ): Promise<PropertyMap> {
    const urn = this.urn(kind, name);
    const result = await this.provider.check(
      urn,
      olds,
      this.providers === "plugin" ? news : { ...news, __provider: this.providers[kind] },
    );
    if (result.failures.length > 0) throw new CheckFailedError(urn, result.failures);
    return result.inputs;
  }

  async create(kind: ResourceKind, name: string, news: PropertyMap): Promise<ManagedResource> {
    const inputs = await this.check(kind, name, news);
    const urn = this.urn(kind, name);
    const { id, properties } = await this.provider.create(urn, inputs);
    return { kind, name, urn, id, inputs, outputs: properties };
  }

  /**
   * Check, diff and, when the diff asks for an in-place change, update. A diff that asks for a
   * replacement is returned without acting: replacing is a create and a delete, the caller's call.
   */
  async update(
    resource: ManagedResource,
    news: PropertyMap,
  ): Promise<{ resource: ManagedResource; diff: DiffResult }> {
    const { kind, name, urn, id } = resource;
    const inputs = await this.check(kind, name, news, resource.inputs);
    const diff = await this.provider.diff(id, urn, resource.outputs, inputs, resource.inputs);
    if (diff.changes === "DIFF_NONE" || diff.replaces.length > 0) return { resource, diff };
    const { properties } = await this.provider.update(
      id,
      urn,
      resource.outputs,
      inputs,
      resource.inputs,
    );
    return { resource: { ...resource, inputs, outputs: properties }, diff };
  }

  /** Delete runs the `__provider` stored in the outputs, as under `pulumi destroy`. */
  async delete(resource: ManagedResource): Promise<void> {
    await this.provider.delete(resource.id, resource.urn, resource.outputs, resource.inputs);
  }
}
