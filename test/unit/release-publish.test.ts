/**
 * `npm run release:publish`, the parts that need no registry: the Go module zip and its go.sum
 * hashes as Go computes them, the GOPROXY folder and the plugin download folder (a published
 * version never changes; a re-run leaves what is there), the release folder read back and checked
 * against its SHA256SUMS, the target URLs and the placeholder-address rule, the order npm
 * packages go out in, and the publishing tools' output with credentials blanked or withheld.
 * The registries themselves: test/release/installed-by-name.test.ts.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { create } from "tar";
import {
  checkModulePath,
  escapeForProxy,
  goVersion,
  hash1,
  moduleFileProblems,
  moduleZip,
  publishToGoProxyFolder,
  type ModuleFile,
} from "../../provider/release/go-module-proxy";
import {
  checkDependenciesFirst,
  registryKey,
  type NpmTarball,
} from "../../provider/release/npm-publish";
import { parseSums, publishToDownloadFolder } from "../../provider/release/plugin-download-folder";
import {
  checkAddressForTargets,
  checkRegistryUrl,
  placeholderAddress,
} from "../../provider/release/publish-targets";
import { PublishRefusal } from "../../provider/release/errors";
import { runPublishingTool } from "../../provider/release/publishing-tool";
import { listedFiles, projectOfFile } from "../../provider/release/python-publish";
import { readRelease } from "../../provider/release/release-contents";
import { RELEASE_MARKER } from "../../provider/release/release-folder";

const file = (path: string, text: string): ModuleFile => ({ path, data: Buffer.from(text) });

/** The PublishRefusal `pending` rejects with (failing the test when it is anything else). */
async function refusalOf(pending: Promise<unknown>): Promise<PublishRefusal> {
  const error: unknown = await pending.then(
    () => undefined,
    (refused: unknown) => refused,
  );
  expect(error).toBeInstanceOf(PublishRefusal);
  return error as PublishRefusal;
}

/** A module whose go.sum lines Go 1.26.8 printed (`go mod download -json` from a file proxy). */
const tiny = [
  file("go.mod", "module example.com/tiny\n\ngo 1.21\n"),
  file("tiny.go", 'package tiny\n\nconst Name = "tiny"\n'),
];
const tinyGoSum = [
  "example.com/tiny v0.1.0 h1:pldD+CiXV+vk7SH8LM4x6mtXNdjTfikPh+QnUp2A6O4=",
  "example.com/tiny v0.1.0/go.mod h1:aUxf0BWg919ncwwW3qkIy5GE3tKU/9IFZjmG0eI8VT4=",
];

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "voiceplatform-publish-unit-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("the Go module in a GOPROXY folder", () => {
  test("the zip holds every file under <module>@<version>/ and sums as Go sums it", async () => {
    const zip = moduleZip("example.com/tiny", "v0.1.0", tiny);
    expect(Object.keys(unzipSync(zip)).sort()).toEqual([
      "example.com/tiny@v0.1.0/go.mod",
      "example.com/tiny@v0.1.0/tiny.go",
    ]);
    // The same files give the same bytes (a re-run compares them).
    expect(moduleZip("example.com/tiny", "v0.1.0", tiny).equals(zip)).toBe(true);
    const published = await publishToGoProxyFolder({
      folder: root,
      files: tiny,
      version: "v0.1.0",
      time: new Date("2026-01-02T03:04:05.678Z"),
    });
    expect(published.goSum).toEqual(tinyGoSum);
    expect(published.outcome).toBe("published");
    const dir = join(root, "example.com", "tiny", "@v");
    expect((await readdir(dir)).sort()).toEqual([
      "list",
      "v0.1.0.info",
      "v0.1.0.mod",
      "v0.1.0.zip",
    ]);
    expect(JSON.parse(await readFile(join(dir, "v0.1.0.info"), "utf8"))).toEqual({
      Version: "v0.1.0",
      Time: "2026-01-02T03:04:05Z",
    });
    expect(await readFile(join(dir, "v0.1.0.mod"), "utf8")).toBe(
      "module example.com/tiny\n\ngo 1.21\n",
    );
    expect(await readFile(join(dir, "list"), "utf8")).toBe("v0.1.0\n");
  });

  test("hash1 is Go's dirhash: sha256 of the sorted `<sha256>  <name>` lines", () => {
    const lines = ["a", "b/c"].map((name) => `${sha256(name)}  ${name}\n`).join("");
    expect(
      hash1([
        { name: "b/c", data: Buffer.from("b/c") },
        { name: "a", data: Buffer.from("a") },
      ]),
    ).toBe(`h1:${createHash("sha256").update(lines).digest("base64")}`);
  });

  test("publishing the same version again leaves it; other content under it is refused, nothing written", async () => {
    const publish = (files: ModuleFile[], version = "v0.1.0") =>
      publishToGoProxyFolder({ folder: root, files, version, time: new Date() });
    await publish(tiny);
    const dir = join(root, "example.com", "tiny", "@v");
    const info = await readFile(join(dir, "v0.1.0.info"), "utf8");
    expect((await publish(tiny)).outcome).toBe("unchanged");
    expect(await readFile(join(dir, "v0.1.0.info"), "utf8")).toBe(info);

    const changed = [tiny[0]!, file("tiny.go", 'package tiny\n\nconst Name = "changed"\n')];
    const zipBefore = await readFile(join(dir, "v0.1.0.zip"));
    await expect(publish(changed)).rejects.toThrow(
      /example\.com\/tiny@v0\.1\.0 is already in the GOPROXY folder with other content .*never changes.*new version/s,
    );
    expect((await readFile(join(dir, "v0.1.0.zip"))).equals(zipBefore)).toBe(true);

    // Another version is added to the list; the first stays.
    await publish(changed, "v0.2.0");
    expect(await readFile(join(dir, "list"), "utf8")).toBe("v0.1.0\nv0.2.0\n");
  });

  test("a version left half-written is refused, naming the files; one missing from the list is added back", async () => {
    const publish = () =>
      publishToGoProxyFolder({ folder: root, files: tiny, version: "v0.1.0", time: new Date() });
    await publish();
    const dir = join(root, "example.com", "tiny", "@v");
    await writeFile(join(dir, "list"), "");
    expect((await publish()).outcome).toBe("unchanged");
    expect(await readFile(join(dir, "list"), "utf8")).toBe("v0.1.0\n");
    await rm(join(dir, "v0.1.0.info"));
    await expect(publish()).rejects.toThrow(/only \.zip, \.mod \(an interrupted publish\?\)/);
  });

  test("module paths and versions go escapes, and those it refuses, with the fix", () => {
    expect(escapeForProxy("github.com/Acme/SDK")).toBe("github.com/!acme/!s!d!k");
    expect(goVersion("0.1.0")).toBe("v0.1.0");
    expect(goVersion("1.2.3-rc.1")).toBe("v1.2.3-rc.1");
    expect(() => goVersion("1.2.3+build")).toThrow(/not one Go accepts/);
    expect(() => checkModulePath("example.com/voiceplatform/sdk/go", "v0.1.0")).not.toThrow();
    expect(() => checkModulePath("pulumi-voice-platform/sdk/go", "v0.1.0")).toThrow(
      /"pulumi-voice-platform" is not a domain name.*--go-module-path/s,
    );
    expect(() => checkModulePath("example.com/sdk/go", "v2.0.0")).toThrow(/end in \/v2/);
    expect(() => checkModulePath("example.com/sdk/go/v2", "v2.0.0")).not.toThrow();
    expect(() => checkModulePath("example.com/sdk/go/v2", "v1.0.0")).toThrow(/forbids/);
    expect(() => checkModulePath("example.com/.hidden", "v0.1.0")).toThrow(/leading dot/);
  });

  test("files Go's zip rules refuse are each named", () => {
    expect(moduleFileProblems(tiny)).toEqual([]);
    expect(
      moduleFileProblems([
        ...tiny,
        file("Tiny.go", ""),
        file("sub/go.mod", "module example.com/tiny/sub\n"),
        file("vendor/x/y.go", ""),
        file("con.go", ""),
        file("a:b.go", ""),
      ]),
    ).toEqual([
      "Tiny.go and tiny.go differ only in case",
      "sub/go.mod: a go.mod below the top folder (a nested module)",
      "vendor/x/y.go: a vendor folder",
      'con.go: not a valid module file path ("con.go", a name Windows reserves)',
      'a:b.go: not a valid module file path (a character Go refuses in "a:b.go")',
    ]);
    expect(moduleFileProblems([tiny[1]!])).toEqual(["no go.mod at the top"]);
  });
});

describe("the plugin archives in the download folder", () => {
  async function archive(name: string, text: string) {
    const path = join(root, "release", name);
    await mkdir(join(root, "release"), { recursive: true });
    await writeFile(path, text);
    return { file: path, sha256: sha256(text) };
  }

  test("archives and a SHA256SUMS of bare names; other versions' lines kept; a re-run leaves them", async () => {
    const folder = join(root, "download");
    await mkdir(folder);
    const older = `${"0".repeat(64)}  pulumi-resource-voiceplatform-v0.0.9-linux-amd64.tar.gz\n`;
    await writeFile(join(folder, "SHA256SUMS"), older);
    const a = await archive("pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz", "linux");
    const b = await archive("pulumi-resource-voiceplatform-v0.1.0-darwin-arm64.tar.gz", "darwin");
    expect(await publishToDownloadFolder(folder, [a, b])).toEqual({
      published: [
        "pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz",
        "pulumi-resource-voiceplatform-v0.1.0-darwin-arm64.tar.gz",
      ],
      unchanged: [],
    });
    const sums = await readFile(join(folder, "SHA256SUMS"), "utf8");
    expect(sums).toBe(
      older +
        `${b.sha256}  pulumi-resource-voiceplatform-v0.1.0-darwin-arm64.tar.gz\n` +
        `${a.sha256}  pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz\n`,
    );
    expect(
      await readFile(
        join(folder, "pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz"),
        "utf8",
      ),
    ).toBe("linux");
    expect((await publishToDownloadFolder(folder, [a, b])).unchanged).toHaveLength(2);
    expect((await readdir(folder)).filter((name) => name.includes("publishing"))).toEqual([]);
  });

  test("an archive there with other bytes, or summed otherwise, is refused before anything is written", async () => {
    const folder = join(root, "download");
    await mkdir(folder);
    const name = "pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz";
    await writeFile(join(folder, name), "published earlier");
    const a = await archive(name, "rebuilt");
    const b = await archive("pulumi-resource-voiceplatform-v0.1.0-darwin-arm64.tar.gz", "darwin");
    await expect(publishToDownloadFolder(folder, [b, a])).rejects.toThrow(
      new RegExp(
        `${name}: the archive there has sha256 ${sha256("published earlier")}, this release's is ${a.sha256}`,
      ),
    );
    expect((await readdir(folder)).sort()).toEqual([name]);

    await rm(join(folder, name));
    await writeFile(join(folder, "SHA256SUMS"), `${sha256("other")}  ${name}\n`);
    await expect(publishToDownloadFolder(folder, [a])).rejects.toThrow(
      /the folder's SHA256SUMS has sha256/,
    );
    expect(existsSync(join(folder, name))).toBe(false);
  });

  test("SHA256SUMS lines of another shape are refused", () => {
    expect(() => parseSums("abc  x\n", "SHA256SUMS")).toThrow(
      /"abc {2}x" is not a "<sha256> {2}<name>" line/,
    );
    expect([...parseSums(`${"a".repeat(64)} *x.tar.gz\n`, "S").entries()]).toEqual([
      ["x.tar.gz", "a".repeat(64)],
    ]);
  });
});

describe("a release folder read back", () => {
  /** A release folder as `npm run release` lays it out, smallest: marker, sums, Go tarball. */
  async function fakeRelease(server = "http://127.0.0.1:4444/"): Promise<string> {
    const folder = join(root, "release");
    const go = join(root, "go");
    await mkdir(join(go, "voiceplatform"), { recursive: true });
    await writeFile(join(go, "go.mod"), "module example.com/voiceplatform/sdk/go\n\ngo 1.25\n");
    const plugin = {
      resource: true,
      name: "voiceplatform",
      version: "0.1.0",
      ...(server ? { server } : {}),
    };
    await writeFile(join(go, "voiceplatform", "pulumi-plugin.json"), JSON.stringify(plugin));
    await mkdir(join(folder, "plugin"), { recursive: true });
    await mkdir(join(folder, "npm"));
    await writeFile(join(folder, RELEASE_MARKER), "marker");
    const tarball = join(folder, "pulumi-voiceplatform-go-sdk-v0.1.0.tar.gz");
    await create({ gzip: true, file: tarball, cwd: go }, ["go.mod", "voiceplatform"]);
    const archive = join(
      folder,
      "plugin",
      "pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz",
    );
    await writeFile(archive, "archive");
    await writeFile(join(folder, "npm", "pulumi-voice-platform-0.1.0.tgz"), "npm");
    await writeFile(
      join(folder, "release.json"),
      JSON.stringify({
        version: "0.1.0",
        tag: "v0.1.0",
        publicAddress: {
          address: "placeholder.invalid/owner/pulumi-voice-platform",
          placeholder: true,
        },
        pluginDownloadURL: server,
        plugin: {
          archives: ["plugin/pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz"],
          checksums: "plugin/SHA256SUMS",
        },
        npm: [
          {
            name: "pulumi-voice-platform",
            version: "0.1.0",
            file: "npm/pulumi-voice-platform-0.1.0.tgz",
          },
        ],
        python: { version: "0.1.0", files: [] },
        go: {
          dir: "go",
          modulePath: "example.com/voiceplatform/sdk/go",
          version: "v0.1.0",
          tag: "provider/sdk/go/v0.1.0",
          tarball: "pulumi-voiceplatform-go-sdk-v0.1.0.tar.gz",
        },
      }),
    );
    const sums = [
      [archive, "plugin/pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz"],
      [tarball, "pulumi-voiceplatform-go-sdk-v0.1.0.tar.gz"],
      [
        join(folder, "npm", "pulumi-voice-platform-0.1.0.tgz"),
        "npm/pulumi-voice-platform-0.1.0.tgz",
      ],
    ];
    let text = "";
    for (const [path, name] of sums) text += `${sha256(await readFile(path!))}  ${name}\n`;
    await writeFile(join(folder, "SHA256SUMS"), text);
    return folder;
  }

  test("what to publish comes from release.json, each file summed, its Go module's facts the module's own", async () => {
    const release = await readRelease(await fakeRelease());
    expect({
      version: release.version,
      placeholder: release.placeholderAddress,
      goTag: release.goTag,
      goModulePath: release.goModulePath,
      pluginDownloadURL: release.pluginDownloadURL,
      archives: release.pluginArchives.map((f) => f.name),
      npm: release.npmTarballs.map((f) => f.name),
      goFiles: release.goModule.map((f) => f.path),
    }).toEqual({
      version: "0.1.0",
      placeholder: "placeholder.invalid/owner/pulumi-voice-platform",
      goTag: "provider/sdk/go/v0.1.0",
      goModulePath: "example.com/voiceplatform/sdk/go",
      pluginDownloadURL: "http://127.0.0.1:4444/",
      archives: ["plugin/pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz"],
      npm: ["npm/pulumi-voice-platform-0.1.0.tgz"],
      goFiles: ["go.mod", "voiceplatform/pulumi-plugin.json"],
    });
  });

  test("release.json that does not match the summed Go module, or names a file not summed, is refused", async () => {
    const folder = await fakeRelease();
    const manifest = JSON.parse(await readFile(join(folder, "release.json"), "utf8"));
    await writeFile(
      join(folder, "release.json"),
      JSON.stringify({ ...manifest, pluginDownloadURL: "https://downloads.acme.io/" }),
    );
    const disagreeing = await refusalOf(readRelease(folder));
    expect(disagreeing.artifact).toBe("release.json");
    expect(disagreeing.message).toContain("summed Go module disagree");
    expect(disagreeing.message).toContain(
      "pluginDownloadURL https://downloads.acme.io/ against http://127.0.0.1:4444/",
    );
    expect(disagreeing.message).toContain("Build the release again");
    await writeFile(
      join(folder, "release.json"),
      JSON.stringify({ ...manifest, python: { version: "0.1.0", files: ["python/extra.whl"] } }),
    );
    const unsummed = await refusalOf(readRelease(folder));
    expect(unsummed.artifact).toBe("python/extra.whl");
    expect(unsummed.message).toContain("release.json names the Python file python/extra.whl");
    expect(unsummed.message).toContain("SHA256SUMS does not list");
    await rm(join(folder, "release.json"));
    await expect(readRelease(folder)).rejects.toThrow(/release\.json is missing/);
  });

  test("a file changed after the build, a missing file and a folder without the marker are refused", async () => {
    const folder = await fakeRelease();
    await writeFile(join(folder, "npm", "pulumi-voice-platform-0.1.0.tgz"), "changed");
    await expect(readRelease(folder)).rejects.toThrow(
      /npm\/pulumi-voice-platform-0\.1\.0\.tgz has sha256 [0-9a-f]{64}, the release's SHA256SUMS says [0-9a-f]{64}: the release folder changed/,
    );
    await rm(join(folder, "npm", "pulumi-voice-platform-0.1.0.tgz"));
    await expect(readRelease(folder)).rejects.toThrow(/is missing or not a file/);
    await rm(join(folder, RELEASE_MARKER));
    await expect(readRelease(folder)).rejects.toThrow(
      /is not a release folder .*--from the --out folder/,
    );
  });
});

describe("where a release may be published", () => {
  test("registry URLs: https, or http on loopback; credentials, queries and other schemes refused, never echoed", () => {
    expect(checkRegistryUrl("--npm-registry", "https://registry.example.com/npm/").href).toBe(
      "https://registry.example.com/npm/",
    );
    expect(checkRegistryUrl("--npm-registry", "http://127.0.0.1:4873/").host).toBe(
      "127.0.0.1:4873",
    );
    expect(checkRegistryUrl("--npm-registry", "http://[::1]:4873/").hostname).toBe("[::1]");
    expect(() => checkRegistryUrl("--npm-registry", "http://registry.example.com/")).toThrow(
      /--npm-registry http:\/\/registry\.example\.com\/ is not https/,
    );
    const refusals = [
      "https://user:Pa55-word-91@registry.example.com/",
      "https://registry.example.com/?token=Pa55-word-91",
      "Pa55-word-91",
    ].map((value) => {
      try {
        checkRegistryUrl("--python-repository", value);
        return "accepted";
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(refusals).toEqual([
      expect.stringMatching(/carries a user name or password.*credentials in the environment/),
      expect.stringMatching(/has a query or fragment/),
      expect.stringMatching(/is not a URL/),
    ]);
    for (const message of refusals) expect(message).not.toMatch(/Pa55-word-91|user:/);
  });

  test("a placeholder address goes only to loopback stand-ins; a public one anywhere", () => {
    const local = { "--npm-registry": new URL("http://127.0.0.1:4873/") };
    const remote = { "--npm-registry": new URL("https://registry.example.com/") };
    const placeholders = [
      {
        goModulePath: "pulumi-voice-platform/sdk/go",
        pluginDownloadURL: "https://downloads.acme.io/",
      },
      {
        goModulePath: "example.com/voiceplatform/sdk/go",
        pluginDownloadURL: "https://downloads.acme.io/",
      },
      { goModulePath: "go.acme.io/voiceplatform", pluginDownloadURL: "http://127.0.0.1:9/" },
      { goModulePath: "go.acme.io/voiceplatform", pluginDownloadURL: "https://voice.example/" },
      { goModulePath: "go.acme.io/voiceplatform", pluginDownloadURL: undefined },
      {
        goModulePath: "go.acme.io/voiceplatform",
        pluginDownloadURL: "https://downloads.acme.io/v${VERSION}",
        placeholderAddress: "placeholder.invalid/owner/pulumi-voice-platform",
      },
    ];
    expect(placeholders.map(placeholderAddress)).toEqual([
      "its Go module path pulumi-voice-platform/sdk/go starts with no domain",
      "its Go module path example.com/voiceplatform/sdk/go is on a reserved domain",
      "its pluginDownloadURL is on 127.0.0.1",
      "its pluginDownloadURL is on voice.example",
      "its SDKs name no pluginDownloadURL (a --dry-run release)",
      "its public address placeholder.invalid/owner/pulumi-voice-platform is the placeholder",
    ]);
    for (const release of placeholders) {
      expect(() => checkAddressForTargets(release, local)).not.toThrow();
      expect(() => checkAddressForTargets(release, remote)).toThrow(
        /placeholder address .*--npm-registry https:\/\/registry\.example\.com .*only to loopback stand-ins and folders/s,
      );
    }
    const real = {
      goModulePath: "go.acme.io/voiceplatform",
      pluginDownloadURL: "https://downloads.acme.io/v",
    };
    expect(placeholderAddress(real)).toBeUndefined();
    expect(() => checkAddressForTargets(real, remote)).not.toThrow();
  });
});

describe("npm packages", () => {
  const tarball = (name: string, needs: string[] = []): NpmTarball => ({
    file: `${name}.tgz`,
    name,
    version: "0.1.0",
    integrity: "sha512-x",
    needs,
  });

  test("each goes out after the packages of the release it depends on, or nothing goes out", () => {
    const main = tarball("pulumi-voice-platform", ["undici", "pulumi-voice-platform-linux-x64"]);
    const sdk = tarball("pulumi-voice-platform-sdk", ["@pulumi/pulumi"]);
    const linux = tarball("pulumi-voice-platform-linux-x64");
    expect(() => checkDependenciesFirst([linux, sdk, main])).not.toThrow();
    expect(() => checkDependenciesFirst([sdk, main, linux])).toThrow(
      /lists pulumi-voice-platform before pulumi-voice-platform-linux-x64, which it depends on/,
    );
  });

  test("the token's key is the registry's URL without scheme", () => {
    expect(registryKey(new URL("http://127.0.0.1:4873"))).toBe("//127.0.0.1:4873/");
    expect(registryKey(new URL("https://npm.acme.io/api/npm/local"))).toBe(
      "//npm.acme.io/api/npm/local/",
    );
  });
});

describe("Python files on an index", () => {
  test("a file's project as PEP 503 names its page, and the files a page lists with their sha256", () => {
    expect(projectOfFile("/r/python/pulumi_voiceplatform-0.1.0-py3-none-any.whl")).toBe(
      "pulumi-voiceplatform",
    );
    expect(projectOfFile("pulumi_voiceplatform-0.1.0.tar.gz")).toBe("pulumi-voiceplatform");
    expect(() => projectOfFile("notes.txt")).toThrow(/not named like a wheel or sdist/);
    const sum = "ab".repeat(32);
    const page = [
      "<html><body>",
      `<a href="../../packages/pulumi_voiceplatform-0.1.0.tar.gz#sha256=${sum}">pulumi_voiceplatform-0.1.0.tar.gz</a><br>`,
      '<a data-requires-python="&gt;=3.9" href="https://files.example/x/pulumi_voiceplatform-0.1.0-py3-none-any.whl">pulumi_voiceplatform-0.1.0-py3-none-any.whl</a>',
      "</body></html>",
    ].join("\n");
    expect([...listedFiles(page).entries()]).toEqual([
      ["pulumi_voiceplatform-0.1.0.tar.gz", sum],
      ["pulumi_voiceplatform-0.1.0-py3-none-any.whl", undefined],
    ]);
  });
});

describe("what the publishing tools print", () => {
  const printEnv = (variable: string) => [
    "-e",
    `const v = process.env.${variable}; console.log("token " + v + " " + encodeURIComponent(v) + " " + v.toUpperCase()); if (process.argv[1] === "fail") { console.error("bad " + v); process.exit(3); }`,
  ];

  test("a credential is blanked in every form, on success and on failure", async () => {
    const env = { ...process.env, NODE_AUTH_TOKEN: "npm_Tok/en+With=Specials" };
    const { stdout } = await runPublishingTool(process.execPath, printEnv("NODE_AUTH_TOKEN"), {
      env,
    });
    expect(stdout).toMatch(/^token \[redacted\] \[redacted\] \[redacted\]\n$/);
    const failed = await runPublishingTool(
      process.execPath,
      [...printEnv("NODE_AUTH_TOKEN"), "fail"],
      {
        env,
      },
    ).catch((error: Error) => error.message);
    expect(failed).toMatch(/failed:\n.*bad \[redacted\]/s);
    expect(failed).not.toMatch(/Tok\/en|tok%2fen/i);
  });

  test("a credential too short to be searched for withholds the output whole", async () => {
    const env = { ...process.env, TWINE_PASSWORD: "pw1" };
    const { stdout } = await runPublishingTool(process.execPath, printEnv("TWINE_PASSWORD"), {
      env,
    });
    expect(stdout).toMatch(/^\[output withheld: TWINE_PASSWORD is too short[^\]]*\]$/);
    expect(stdout).not.toContain("pw1");
  });
});
