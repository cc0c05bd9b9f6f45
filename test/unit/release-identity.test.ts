/**
 * What names a release: one version, from its tag, and one public address from which every module
 * path, download URL and link derives; the placeholder refused for a release to publish. And the
 * SHA256SUMS files, checkable with `sha256sum -c` in the folder each lies in.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { checksumsText, writeChecksums } from "../../provider/release/checksums";
import { checkDownloadUrl } from "../../provider/release/download-url";
import { ReleaseInputError } from "../../provider/release/errors";
import {
  goModulePath,
  goModuleTag,
  PLACEHOLDER_PUBLIC_ADDRESS,
  PUBLIC_ADDRESS,
  publicAddresses,
  refusePlaceholder,
} from "../../provider/release/public-address";
import { releaseIdentity } from "../../provider/release/release";
import { pythonVersionOf } from "../../provider/release/release-manifest";
import { versionFromTag } from "../../provider/release/release-version";
import { packageSchema } from "../../provider/schema/package-schema";
import { thrownBy } from "../support/thrown";

const run = promisify(execFile);

/** The message of what `act` throws, checked to be a ReleaseInputError naming `input`. */
function inputErrorOf(act: () => unknown, input: string): string {
  const thrown = thrownBy(act);
  expect(thrown).toBeInstanceOf(ReleaseInputError);
  expect((thrown as ReleaseInputError).input).toBe(input);
  return (thrown as ReleaseInputError).message;
}

describe("the version comes from the tag", () => {
  test.each([
    ["v0.1.0", "0.1.0"],
    ["v1.2.3-rc.1", "1.2.3-rc.1"],
    ["v10.0.0-alpha.2.x", "10.0.0-alpha.2.x"],
  ])("%s gives %s", (tag, version) => {
    expect(versionFromTag(tag)).toBe(version);
  });

  test.each(["0.1.0", "v1.2", "v01.2.3", "vx", "release-1.0.0", "v1.2.3-", ""])(
    "%j is refused, naming the option and the form to give",
    (tag) => {
      const message = inputErrorOf(() => versionFromTag(tag), "--tag");
      expect(message).toContain(`--tag ${JSON.stringify(tag)} `);
      expect(message).toContain("not a version tag");
      expect(message).toContain("give v<major>.<minor>.<patch>");
    },
  );

  test("build metadata is refused: npm and PyPI drop it", () => {
    expect(() => versionFromTag("v1.0.0+build.5")).toThrow("carries build metadata (+build.5)");
  });

  test("the schema, and so every SDK, carries the release's version", () => {
    expect(packageSchema({ version: "2.0.0-rc.1" }).version).toBe("2.0.0-rc.1");
  });
});

describe("one public address", () => {
  test("every address derives from it", () => {
    const addresses = publicAddresses("github.com/acme/pulumi-voice-platform");
    expect(addresses).toEqual({
      address: "github.com/acme/pulumi-voice-platform",
      placeholder: false,
      repository: "https://github.com/acme/pulumi-voice-platform",
      gitUrl: "git+https://github.com/acme/pulumi-voice-platform.git",
      homepage: "https://github.com/acme/pulumi-voice-platform#readme",
      issues: "https://github.com/acme/pulumi-voice-platform/issues",
      pluginDownloadURL:
        "https://github.com/acme/pulumi-voice-platform/releases/download/v${VERSION}",
    });
    expect(goModulePath(addresses.address, "0.4.1")).toBe(
      "github.com/acme/pulumi-voice-platform/provider/sdk/go",
    );
    expect(goModulePath(addresses.address, "1.0.0")).toBe(
      "github.com/acme/pulumi-voice-platform/provider/sdk/go",
    );
    // Go's rule: from v2 on the module path ends in the major version.
    expect(goModulePath(addresses.address, "2.3.0-rc.1")).toBe(
      "github.com/acme/pulumi-voice-platform/provider/sdk/go/v2",
    );
    expect(goModuleTag("2.3.0-rc.1")).toBe("provider/sdk/go/v2.3.0-rc.1");
  });

  test("the derived pluginDownloadURL passes the release's own check, ${VERSION} kept", () => {
    const url = publicAddresses("github.com/acme/pulumi-voice-platform").pluginDownloadURL;
    expect(() => checkDownloadUrl(url)).not.toThrow();
    expect(packageSchema({ pluginDownloadURL: url }).pluginDownloadURL).toBe(url);
  });

  test("every resource's Go example imports the package of the module path the SDK's go.mod names", () => {
    const modulePath = goModulePath("github.com/acme/pulumi-voice-platform", "0.4.1");
    const schema = packageSchema({ goModulePath: modulePath });
    const go = schema.language?.go as { importBasePath: string; modulePath: string };
    expect(go).toMatchObject({ modulePath, importBasePath: `${modulePath}/voiceplatform` });
    const goImports = Object.values(schema.resources).map(
      (resource) =>
        /```go\n[\s\S]*?\n\t"([^"]*voiceplatform)"\n/.exec(resource.description ?? "")?.[1],
    );
    expect(goImports).toEqual(Object.keys(schema.resources).map(() => go.importBasePath));
    // The committed schema: the committed go.mod's module, pulumi-voice-platform/sdk/go.
    expect(packageSchema().resources["voiceplatform:index:Voice"]?.description).toContain(
      '\t"pulumi-voice-platform/sdk/go/voiceplatform"\n',
    );
  });

  test.each([
    "https://github.com/acme/repo",
    "github.com/acme/repo/",
    "gitlab.com/acme/repo",
    "github.com/acme",
    "github.com/-acme/repo",
    "github.com/acme/..",
  ])("%s is refused with the form to give", (address) => {
    const message = inputErrorOf(() => publicAddresses(address), "PUBLIC_ADDRESS");
    expect(message).toContain(`PUBLIC_ADDRESS ${JSON.stringify(address)} `);
    expect(message).toContain("not a GitHub repository's address");
    expect(message).toContain("give it as github.com/<owner>/<repo>");
  });

  test("the placeholder is on a domain that never resolves, and a release to publish refuses it", () => {
    const placeholder = publicAddresses(PLACEHOLDER_PUBLIC_ADDRESS);
    expect(placeholder.placeholder).toBe(true);
    expect(new URL(placeholder.repository).hostname).toMatch(/\.invalid$/);
    const message = inputErrorOf(
      () => refusePlaceholder(placeholder, "a release to publish"),
      "PUBLIC_ADDRESS",
    );
    expect(message).toMatch(/^a release to publish with the placeholder /);
    expect(message).toContain(`public address ${PLACEHOLDER_PUBLIC_ADDRESS}:`);
    expect(message).toContain("would point at nothing");
    expect(message).toContain("Set PUBLIC_ADDRESS in provider/release/public-address.ts");
    expect(() =>
      refusePlaceholder(publicAddresses("github.com/acme/repo"), "a release to publish"),
    ).not.toThrow();
  });

  test("npm run release without --dry-run refuses the placeholder before anything runs", async () => {
    const options = { out: "/nonexistent", sea: true, platforms: ["linux-amd64"] };
    if (PUBLIC_ADDRESS === PLACEHOLDER_PUBLIC_ADDRESS) {
      await expect(releaseIdentity({ ...options, dryRun: false })).rejects.toThrow(
        "with the placeholder public address",
      );
    }
    await expect(
      releaseIdentity({
        ...options,
        dryRun: false,
        publicAddress: PLACEHOLDER_PUBLIC_ADDRESS,
      }),
    ).rejects.toThrow("with the placeholder public address");
    const identity = await releaseIdentity({
      ...options,
      dryRun: false,
      tag: "v3.1.0",
      publicAddress: "github.com/acme/pulumi-voice-platform",
    });
    expect(identity).toMatchObject({
      version: "3.1.0",
      pluginDownloadURL:
        "https://github.com/acme/pulumi-voice-platform/releases/download/v${VERSION}",
      goModulePath: "github.com/acme/pulumi-voice-platform/provider/sdk/go/v3",
    });
  });

  test("a download URL given keeps ${VERSION} as typed, for the engine to fill in", async () => {
    const url = "http://127.0.0.1:8080/plugins/v${VERSION}/";
    const identity = await releaseIdentity({
      out: "/nonexistent",
      sea: true,
      platforms: ["linux-amd64"],
      dryRun: true,
      pluginDownloadURL: url,
    });
    expect(identity.pluginDownloadURL).toBe(url);
  });
});

describe("SHA256SUMS", () => {
  const artifacts = [
    { name: "plugin/a-linux.tar.gz", size: 1, sha256: "1".repeat(64) },
    { name: "plugin/a-darwin.tar.gz", size: 1, sha256: "2".repeat(64) },
    { name: "npm/a-1.0.0.tgz", size: 1, sha256: "3".repeat(64) },
  ];

  test("the release's names every artifact by its path; plugin/'s names the archives bare", () => {
    expect(checksumsText(artifacts, "")).toBe(
      `${"1".repeat(64)}  plugin/a-linux.tar.gz\n${"2".repeat(64)}  plugin/a-darwin.tar.gz\n` +
        `${"3".repeat(64)}  npm/a-1.0.0.tgz\n`,
    );
    expect(checksumsText(artifacts, "plugin")).toBe(
      `${"1".repeat(64)}  a-linux.tar.gz\n${"2".repeat(64)}  a-darwin.tar.gz\n`,
    );
  });

  test("sha256sum -c checks each where it lies: the release folder, and a download folder", async () => {
    const out = await mkdtemp(join(tmpdir(), "voiceplatform-sums-"));
    try {
      await mkdir(join(out, "plugin"));
      await mkdir(join(out, "npm"));
      const files = [join(out, "plugin", "p-linux.tar.gz"), join(out, "npm", "n.tgz")];
      for (const file of files) await writeFile(file, file);
      await writeChecksums(out, files, ["plugin"]);
      const here = await run("sha256sum", ["-c", "SHA256SUMS"], { cwd: out });
      expect(here.stdout).toBe("plugin/p-linux.tar.gz: OK\nnpm/n.tgz: OK\n");
      // What a user downloads: an archive and the SHA256SUMS published beside it, in one folder.
      const downloads = join(out, "downloads");
      await mkdir(downloads);
      await run("cp", [join(out, "plugin", "SHA256SUMS"), files[0]!, downloads]);
      const there = await run("sha256sum", ["-c", "SHA256SUMS"], { cwd: downloads });
      expect(there.stdout).toBe("p-linux.tar.gz: OK\n");
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe("release.json", () => {
  test("the Python version is read from the wheel's name", () => {
    expect(pythonVersionOf("python/pulumi_voiceplatform-1.2.0rc1-py3-none-any.whl")).toBe(
      "1.2.0rc1",
    );
    expect(() => pythonVersionOf("python/other-1.0.0-py3-none-any.whl")).toThrow(
      "is not a pulumi_voiceplatform wheel",
    );
  });
});
