/**
 * The package installed as npm installs it for a user, from tarballs instead of a registry: the
 * package, the native package(s) given beside it, and the pinned @pulumi/pulumi (its peer), into
 * a project of their own. `--offline`: everything else comes from npm's cache, and the native
 * packages not given (other platforms', never in the cache) fail to resolve and are left out, as
 * optional dependencies that do not install are; so no registry is asked for names it lacks.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { PLUGIN_NAME } from "../../provider/release/plugin-archive";
import { REPO_ROOT } from "./packed-package";

const run = promisify(execFile);

export interface NpmRouteInstall {
  /** The project holding node_modules. */
  readonly dir: string;
  /** node_modules/.bin/pulumi-resource-voiceplatform: the package's bin, what PATH finds. */
  readonly bin: string;
}

/** Installs `tarballs` into a new project `dir`; `omitOptional` as `npm install --omit=optional`. */
export async function installFromTarballs(
  dir: string,
  tarballs: readonly string[],
  options: { omitOptional?: boolean } = {},
): Promise<NpmRouteInstall> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "npm-route", private: true }));
  const pulumi = JSON.parse(
    await readFile(join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
  ) as { version: string };
  await run(
    "npm",
    [
      "install",
      "--offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...(options.omitOptional ? ["--omit=optional"] : []),
      ...tarballs,
      `@pulumi/pulumi@${pulumi.version}`,
    ],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { stderr?: string }) => {
    throw new Error(`npm install of ${tarballs.join(", ")} failed: ${error.stderr}`);
  });
  return { dir, bin: join(dir, "node_modules", ".bin", PLUGIN_NAME) };
}
