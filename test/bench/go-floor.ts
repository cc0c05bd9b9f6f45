/**
 * The Go floor (test/bench/go-floor/main.go): a do-nothing `pulumi-resource-voiceplatform` on
 * Pulumi's provider.Main, answering this package's schema, built once per source, schema and
 * version into the toolchain cache beside the Pulumi CLI's and reused. Offline once the module
 * cache holds github.com/pulumi/pulumi/pkg/v3 (the CLI build fetched it): go.sum is committed,
 * and GOPROXY is whatever the environment says.
 */
import { createHash } from "node:crypto";
import { access, copyFile, mkdir, mkdtemp, readFile, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { packageVersion } from "../../provider/schema/package-schema";
import { goBuild } from "../../provider/release/go-build";
import { PLUGIN_NAME } from "../../provider/release/plugin-archive";
import { REPO_ROOT } from "../support/packed-package";

const SOURCE_DIR = join(__dirname, "go-floor");
const SOURCES = ["main.go", "go.mod", "go.sum"];
const SCHEMA = join(REPO_ROOT, "provider", "sdk", "schema.json");

function cacheRoot(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "pulumi-voice-platform", "go-floor");
}

/** The Go floor's executable, built first when this source, schema and version have none. */
export async function goFloorProvider(): Promise<string> {
  const version = packageVersion();
  const hash = createHash("sha256").update(version);
  for (const file of [...SOURCES.map((name) => join(SOURCE_DIR, name)), SCHEMA]) {
    hash.update(await readFile(file));
  }
  const dir = join(cacheRoot(), hash.digest("hex").slice(0, 16));
  const executable = join(dir, PLUGIN_NAME);
  if (
    await access(executable).then(
      () => true,
      () => false,
    )
  )
    return executable;
  await mkdir(cacheRoot(), { recursive: true });
  const build = await mkdtemp(join(cacheRoot(), "build-"));
  try {
    for (const name of SOURCES) await copyFile(join(SOURCE_DIR, name), join(build, name));
    await copyFile(SCHEMA, join(build, "schema.json"));
    await goBuild({
      sourceDir: build,
      output: PLUGIN_NAME,
      ldflags: `-X main.version=${version}`,
      withoutGo: "the Go floor needs the Go toolchain (go on PATH)",
      what: "the Go floor",
    });
    await mkdir(dir, { recursive: true });
    await rename(join(build, PLUGIN_NAME), executable);
    return executable;
  } finally {
    await rm(build, { recursive: true, force: true });
  }
}
