/**
 * `npm run release:publish`: a release folder checked whole, then published to the targets given.
 * Measured behaviour: docs/development.md#publishing
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { redactSecrets } from "../platform/redaction";
import {
  goVersion,
  moduleFileProblems,
  publishToGoProxyFolder,
  verifyWithGo,
} from "./go-module-proxy";
import { checkDependenciesFirst, publishToNpm, readNpmTarball } from "./npm-publish";
import { publishToDownloadFolder } from "./plugin-download-folder";
import { checkAddressForTargets, checkRegistryUrl, placeholderAddress } from "./publish-targets";
import { rememberCredentials, runPublishingTool } from "./publishing-tool";
import { checkPythonFiles, publishToPython } from "./python-publish";
import { readRelease, type ReleaseContents } from "./release-contents";
import { PublishRefusal, ReleaseInputError } from "./errors";

export interface PublishOptions {
  from: string;
  pluginFolder?: string;
  goProxyFolder?: string;
  pythonRepository?: string;
  /** The index's simple API (PEP 503), to compare what it holds before uploading. */
  pythonIndex?: string;
  npmRegistry?: string;
  npmProvenance: boolean;
  dryRun: boolean;
  /** The environment the registries' clients run with (credentials included). */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

const USAGE =
  "give at least one of --plugin-folder DIR, --go-proxy-folder DIR, --python-repository URL, " +
  "--npm-registry URL (docs/development.md, Publishing)";

interface Plan {
  release: ReleaseContents;
  goVersion: string;
  pythonRepository?: URL;
  pythonIndex?: URL;
  npmRegistry?: URL;
}

/** Every check, nothing published; answers what the publish will do. */
async function plan(options: PublishOptions): Promise<Plan> {
  const { pluginFolder, goProxyFolder, pythonRepository, npmRegistry } = options;
  if (![pluginFolder, goProxyFolder, pythonRepository, npmRegistry].some((t) => t !== undefined)) {
    throw new ReleaseInputError("targets", `nothing to publish to: ${USAGE}.`);
  }
  const python =
    pythonRepository === undefined
      ? undefined
      : checkRegistryUrl("--python-repository", pythonRepository);
  const index =
    options.pythonIndex === undefined
      ? undefined
      : checkRegistryUrl("--python-index", options.pythonIndex);
  if (index !== undefined && python === undefined) {
    throw new ReleaseInputError(
      "--python-index",
      "--python-index is the index to compare before uploading: give --python-repository too.",
    );
  }
  const npm =
    npmRegistry === undefined ? undefined : checkRegistryUrl("--npm-registry", npmRegistry);
  const release = await readRelease(options.from);
  checkAddressForTargets(release, {
    "--python-repository": python,
    "--python-index": index,
    "--npm-registry": npm,
  });
  const version = goVersion(release.version);
  if (goProxyFolder !== undefined) {
    const problems = moduleFileProblems(release.goModule);
    if (problems.length > 0)
      throw new PublishRefusal(
        "the Go module",
        `the Go module cannot be published:\n  ${problems.join("\n  ")}`,
      );
  }
  const missing = [
    pluginFolder !== undefined && release.pluginArchives.length === 0 && "plugin archives",
    python !== undefined && release.pythonFiles.length === 0 && "Python files",
    npm !== undefined && release.npmTarballs.length === 0 && "npm tarballs",
  ].filter((what): what is string => typeof what === "string");
  if (missing.length > 0)
    throw new PublishRefusal(
      "SHA256SUMS",
      `the release's SHA256SUMS lists no ${missing.join(" and no ")}.`,
    );
  if (python !== undefined)
    await checkPythonFiles(
      release.pythonFiles.map((f) => f.file),
      options.env,
    );
  if (npm !== undefined) {
    checkDependenciesFirst(
      await Promise.all(release.npmTarballs.map((f) => readNpmTarball(f.file))),
    );
  }
  return {
    release,
    goVersion: version,
    ...(python === undefined ? {} : { pythonRepository: python }),
    ...(index === undefined ? {} : { pythonIndex: index }),
    ...(npm === undefined ? {} : { npmRegistry: npm }),
  };
}

function describePlan(options: PublishOptions, planned: Plan): string[] {
  const { release } = planned;
  const placeholder = placeholderAddress(release);
  const lines = [
    `release ${release.version} from ${release.folder}`,
    `  pluginDownloadURL: ${release.pluginDownloadURL ?? "(none)"}`,
    `  Go module:         ${release.goModulePath}@${planned.goVersion}`,
    placeholder === undefined
      ? `  the public Go module: tag ${release.goTag}, which the release workflow pushes`
      : `  placeholder address (${placeholder}): loopback stand-ins and folders only`,
  ];
  if (options.pluginFolder !== undefined) {
    lines.push(
      `  plugin archives (${release.pluginArchives.length}) and SHA256SUMS -> ${resolve(options.pluginFolder)}`,
    );
  }
  if (options.goProxyFolder !== undefined)
    lines.push(`  Go module -> GOPROXY folder ${resolve(options.goProxyFolder)}`);
  if (planned.pythonRepository !== undefined) {
    lines.push(
      `  ${release.pythonFiles.map((f) => f.name).join(", ")} -> ${planned.pythonRepository.href}`,
    );
  }
  if (planned.npmRegistry !== undefined) {
    lines.push(
      `  ${release.npmTarballs.map((f) => f.name).join(", ")} -> ${planned.npmRegistry.href}`,
    );
  }
  return lines;
}

/** Whether `go` runs here. */
async function goAvailable(env: NodeJS.ProcessEnv): Promise<boolean> {
  return runPublishingTool("go", ["version"], { env }).then(
    () => true,
    () => false,
  );
}

/** Publishes the release as `options` say; see the file's comment. */
export async function publishRelease(options: PublishOptions): Promise<void> {
  rememberCredentials(options.env);
  const planned = await plan(options);
  for (const line of describePlan(options, planned)) options.log(line);
  if (options.dryRun) {
    options.log("dry run: every check passed; nothing published.");
    return;
  }
  const { release } = planned;
  if (options.pluginFolder !== undefined) {
    const done = await publishToDownloadFolder(
      resolve(options.pluginFolder),
      release.pluginArchives,
    );
    options.log(
      `plugin: ${done.published.length} archive(s) published, ${done.unchanged.length} already there; SHA256SUMS updated`,
    );
  }
  if (options.goProxyFolder !== undefined) {
    const folder = resolve(options.goProxyFolder);
    const done = await publishToGoProxyFolder({
      folder,
      files: release.goModule,
      version: planned.goVersion,
      time: new Date(),
    });
    const verified = (await goAvailable(options.env))
      ? await verifyWithGo(done, folder, options.env).then(
          () => "fetched and summed by go mod download",
        )
      : "not checked with Go (no go on PATH)";
    options.log(`go: ${done.module}@${done.version} ${done.outcome}, ${verified}; go.sum lines:`);
    for (const line of done.goSum) options.log(`  ${line}`);
  }
  if (planned.pythonRepository !== undefined) {
    await publishToPython({
      files: release.pythonFiles.map((f) => f.file),
      repository: planned.pythonRepository,
      ...(planned.pythonIndex === undefined ? {} : { index: planned.pythonIndex }),
      env: options.env,
      log: options.log,
    });
  }
  if (planned.npmRegistry !== undefined) {
    await publishToNpm({
      files: release.npmTarballs.map((f) => f.file),
      registry: planned.npmRegistry,
      provenance: options.npmProvenance,
      env: options.env,
      log: options.log,
    });
  }
  options.log("published.");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      from: { type: "string" },
      "plugin-folder": { type: "string" },
      "go-proxy-folder": { type: "string" },
      "python-repository": { type: "string" },
      "python-index": { type: "string" },
      "npm-registry": { type: "string" },
      "npm-provenance": { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
    },
  });
  if (values.from === undefined)
    throw new ReleaseInputError("--from", `--from <release folder> is required; ${USAGE}.`);
  // Relative to the folder `npm run` was started from, not to the repository it runs in.
  const here = (path: string | undefined) =>
    path === undefined ? undefined : resolve(process.env.INIT_CWD ?? process.cwd(), path);
  const optional = <K extends string>(key: K, value: string | undefined) =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, string>>;
  await publishRelease({
    from: here(values.from)!,
    ...optional("pluginFolder", here(values["plugin-folder"])),
    ...optional("goProxyFolder", here(values["go-proxy-folder"])),
    ...optional("pythonRepository", values["python-repository"]),
    ...optional("pythonIndex", values["python-index"]),
    ...optional("npmRegistry", values["npm-registry"]),
    npmProvenance: values["npm-provenance"],
    dryRun: values["dry-run"],
    env: process.env,
    log: (line) => process.stdout.write(`${redactSecrets(line)}\n`),
  });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`publish failed: ${redactSecrets(message)}\n`);
    process.exitCode = 1;
  });
}
