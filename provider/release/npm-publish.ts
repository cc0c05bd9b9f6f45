/**
 * The release's npm tarballs published with `npm publish`, dependencies first.
 * Measured behaviour: docs/development.md#npm-credentials
 */
import { createHash } from "node:crypto";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { list } from "tar";
import { runPublishingTool } from "./publishing-tool";
import { PublishRefusal } from "./errors";

export interface NpmTarball {
  file: string;
  name: string;
  version: string;
  /** What npm records as dist.integrity: `sha512-<base64>`. */
  integrity: string;
  /** The names it depends on (dependencies, optional and peer). */
  needs: string[];
}

export interface NpmPublication {
  published: string[];
  unchanged: string[];
}

/** The package.json inside an npm tarball. */
async function manifestOf(file: string): Promise<Record<string, unknown>> {
  let text: string | undefined;
  await list({
    file,
    onReadEntry: (entry) => {
      if (entry.path !== "package/package.json") return entry.resume();
      const chunks: Buffer[] = [];
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      entry.on("end", () => (text = Buffer.concat(chunks).toString("utf8")));
    },
  });
  if (text === undefined)
    throw new PublishRefusal(file, `${file} has no package/package.json: not an npm tarball`);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function readNpmTarball(file: string): Promise<NpmTarball> {
  const manifest = await manifestOf(file);
  const { name, version } = manifest;
  if (typeof name !== "string" || typeof version !== "string") {
    throw new PublishRefusal(file, `${file}'s package.json has no name or version`);
  }
  const needs = ["dependencies", "optionalDependencies", "peerDependencies"].flatMap((field) =>
    Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
  );
  const integrity = `sha512-${createHash("sha512")
    .update(await readFile(file))
    .digest("base64")}`;
  return { file, name, version, integrity, needs };
}

/**
 * Throws unless each tarball comes after those of the set it depends on (release.json's order):
 * otherwise a package would be installable, for a moment, without a package it names.
 */
export function checkDependenciesFirst(tarballs: readonly NpmTarball[]): void {
  tarballs.forEach((tarball, index) => {
    const later = tarball.needs.filter((need) =>
      tarballs.slice(index + 1).some((other) => other.name === need),
    );
    if (later.length > 0) {
      throw new PublishRefusal(
        "release.json",
        `npm: release.json lists ${tarball.name} before ${later.join(", ")}, which it depends on: ` +
          "publishing in that order would leave it installable without them. Build the release again.",
      );
    }
  });
}

/** npm's key for a registry's settings: the URL without its scheme, ending in a slash. */
export function registryKey(registry: URL): string {
  const path = registry.pathname.endsWith("/") ? registry.pathname : `${registry.pathname}/`;
  return `//${registry.host}${path}`;
}

/** The integrity the registry holds for name@version, or undefined when it has no such version. */
async function publishedIntegrity(
  tarball: NpmTarball,
  registry: URL,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const spec = `${tarball.name}@${tarball.version}`;
  try {
    const { stdout } = await runPublishingTool(
      "npm",
      ["view", spec, "dist.integrity", "--json", "--registry", registry.href],
      { env },
    );
    // No such version of a known package: npm prints nothing.
    return stdout.trim() === "" ? undefined : (JSON.parse(stdout) as string);
  } catch (error) {
    if (/\bE404\b/.test((error as Error).message)) return undefined;
    throw error;
  }
}

/** Publishes `files` (npm tarballs) to `registry`; see the file's comment. */
export async function publishToNpm(options: {
  files: readonly string[];
  registry: URL;
  provenance: boolean;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}): Promise<NpmPublication> {
  const tarballs = await Promise.all(options.files.map(readNpmTarball));
  checkDependenciesFirst(tarballs);
  const config = await mkdtemp(join(tmpdir(), "voiceplatform-publish-npm-"));
  try {
    const env = { ...options.env };
    if (env.NODE_AUTH_TOKEN !== undefined && env.NODE_AUTH_TOKEN !== "") {
      const npmrc = join(config, "npmrc");
      // npm replaces ${NODE_AUTH_TOKEN} from the environment when it reads the file.
      await writeFile(npmrc, `${registryKey(options.registry)}:_authToken=\${NODE_AUTH_TOKEN}\n`, {
        mode: 0o600,
      });
      await chmod(npmrc, 0o600);
      env.npm_config_userconfig = npmrc;
    }
    const result: NpmPublication = { published: [], unchanged: [] };
    for (const tarball of tarballs) {
      const spec = `${tarball.name}@${tarball.version}`;
      const there = await publishedIntegrity(tarball, options.registry, env);
      if (there === tarball.integrity) {
        options.log(`npm: ${spec} is already there with the same bytes: left as it is`);
        result.unchanged.push(spec);
        continue;
      }
      if (there !== undefined) {
        throw new PublishRefusal(
          spec,
          `npm: ${spec} is already on ${options.registry.origin} with other bytes (${there}, ` +
            `this release ${tarball.integrity}): a published npm version never changes. ` +
            "Publish the release under a new version.",
        );
      }
      const tag = tarball.version.includes("-") ? "next" : "latest";
      await runPublishingTool(
        "npm",
        [
          "publish",
          tarball.file,
          "--registry",
          options.registry.href,
          "--tag",
          tag,
          "--access",
          "public",
          ...(options.provenance ? ["--provenance"] : []),
        ],
        { env, cwd: config },
      );
      options.log(`npm: published ${spec} (${tarball.integrity.slice(0, 20)}…, tag ${tag})`);
      result.published.push(spec);
    }
    return result;
  } finally {
    await rm(config, { recursive: true, force: true });
  }
}
