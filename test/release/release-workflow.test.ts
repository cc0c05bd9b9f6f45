/**
 * .github/workflows/release.yml, the release pipeline, checked as GitHub would read it: actionlint
 * finds nothing in it and does find a mistake planted in a copy (so the check can fail); it runs
 * on version tags only; each job holds only the permissions it uses; every action is pinned to a
 * commit; the plugin archives are released before the SDKs that download them are published; its
 * build step, run as the workflow runs it, refuses the placeholder public address before it builds
 * anything; and its Go step, run in a clone pushing to a repository of the test's own, tags a
 * module that `go` then fetches by that tag, as `go get` does from GitHub.
 */
import { execFile, execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { load } from "js-yaml";
import { generateSdks } from "../../provider/codegen/generate-sdks";
import {
  goModulePath,
  goModuleTag,
  PLACEHOLDER_PUBLIC_ADDRESS,
  PUBLIC_ADDRESS,
  publicAddresses,
} from "../../provider/release/public-address";
import { cli, describeE2E } from "../e2e/harness";
import { REPO_ROOT } from "../support/packed-package";
import { actionlint, describeWithTools } from "../support/test-tools";

const run = promisify(execFile);
const WORKFLOW = join(REPO_ROOT, ".github", "workflows", "release.yml");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  "working-directory"?: string;
}

interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  environment?: string;
  steps: Step[];
}

interface Workflow {
  on: { push: { tags?: string[]; branches?: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const text = readFileSync(WORKFLOW, "utf8");
const workflow = load(text) as Workflow;

/** The jobs `job` waits for, directly or through others. */
function upstream(job: string): Set<string> {
  const found = new Set<string>();
  const visit = (name: string) => {
    const needs = workflow.jobs[name]!.needs ?? [];
    for (const need of typeof needs === "string" ? [needs] : needs) {
      if (!found.has(need)) {
        found.add(need);
        visit(need);
      }
    }
  };
  visit(job);
  return found;
}

const step = (job: string, find: (step: Step) => boolean) => workflow.jobs[job]!.steps.find(find);

describeWithTools(["actionlint"], "the release workflow, as actionlint reads it", () => {
  test("actionlint passes on it", async () => {
    expect(await actionlint(WORKFLOW)).toEqual({ code: 0, findings: "" });
  });

  test("actionlint fails on a copy that needs a job there is not", async () => {
    const dir = await mkdtemp(join(tmpdir(), "release-workflow-"));
    try {
      const broken = join(dir, "release.yml");
      await writeFile(broken, text.replace("needs: github-release", "needs: github-releases"));
      const result = await actionlint(broken);
      expect(result.code).toBe(1);
      expect(result.findings).toMatch(/needs job "github-releases" which does not exist/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the release workflow", () => {
  test("runs on version tags only, never a branch", () => {
    expect(workflow.on).toEqual({
      push: { tags: ["v[0-9]+.[0-9]+.[0-9]+", "v[0-9]+.[0-9]+.[0-9]+-*"] },
    });
  });

  test("each job holds only the permissions it uses; OIDC tokens only where publishing needs them", () => {
    expect(workflow.permissions).toEqual({});
    const permissions = Object.fromEntries(
      Object.entries(workflow.jobs).map(([name, job]) => [name, job.permissions]),
    );
    expect(permissions).toEqual({
      build: { contents: "read" },
      "github-release": { contents: "write" },
      "go-module": { contents: "write" },
      pypi: { "id-token": "write" },
      npm: { contents: "read", "id-token": "write" },
    });
    expect(workflow.jobs.pypi!.environment).toBe("pypi");
    expect(workflow.jobs.npm!.environment).toBe("npm");
  });

  test("every action is pinned to a commit, with the version it is named", () => {
    const uses = text.split("\n").filter((line) => /^\s*-?\s*uses:/.test(line));
    expect(uses.length).toBeGreaterThan(10);
    for (const line of uses) {
      expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    }
  });

  test("one build; the archives are released before anything that downloads them is published", () => {
    expect(upstream("github-release")).toEqual(new Set(["build"]));
    for (const job of ["go-module", "pypi", "npm"]) {
      expect([job, [...upstream(job)].sort()]).toEqual([job, ["build", "github-release"]]);
    }
    const build = step("build", (s) => s.run?.startsWith("npm run release --") ?? false);
    // The workflow file's own text, whole: the command the build job runs.
    expect(build?.run).toBe('npm run release -- --tag "$TAG" --out "$RUNNER_TEMP/release"');
    expect(build?.env).toEqual({ TAG: "${{ github.ref_name }}" });
    const upload = step("build", (s) => s.uses?.startsWith("actions/upload-artifact@") ?? false);
    expect(upload?.with).toMatchObject({ name: "release", "include-hidden-files": true });
  });

  test("what each job publishes, and how", () => {
    const release = step("github-release", (s) => s.run?.includes("gh release create") ?? false);
    expect(release?.run).toContain("release/plugin/*.tar.gz release/plugin/SHA256SUMS");
    expect(release?.run).toContain("--verify-tag");
    const checked = step("github-release", (s) => s.run === "sha256sum -c SHA256SUMS");
    expect(checked?.["working-directory"]).toBe("release/plugin");
    const pypi = step("pypi", (s) => s.uses?.startsWith("pypa/gh-action-pypi-publish@") ?? false);
    expect(pypi?.with).toEqual({ "packages-dir": "release/python/" });
    const npm = step("npm", (s) => s.run?.includes("release:publish") ?? false);
    expect(npm?.run).toContain("--npm-provenance");
    const tag = step("go-module", (s) => s.run?.includes("git push") ?? false);
    expect(tag?.run).toContain('git push origin "refs/tags/$module_tag"');
    expect(tag?.run).toContain("jq -r .go.tag");
  });

  test("every script is valid bash", async () => {
    const scripts = Object.values(workflow.jobs).flatMap((job) =>
      job.steps.flatMap((s) => (s.run === undefined ? [] : [s.run])),
    );
    for (const script of scripts) {
      await expect(run("bash", ["-n", "-c", script])).resolves.toMatchObject({ stderr: "" });
    }
  });

  (PUBLIC_ADDRESS === PLACEHOLDER_PUBLIC_ADDRESS ? test : test.skip)(
    "its build step refuses the placeholder public address before building anything",
    async () => {
      const build = step("build", (s) => s.run?.startsWith("npm run release --") ?? false)!;
      const temporary = await mkdtemp(join(tmpdir(), "release-workflow-run-"));
      try {
        const outcome = await run("bash", ["-c", build.run!], {
          cwd: REPO_ROOT,
          env: { ...process.env, TAG: "v9.8.7", RUNNER_TEMP: temporary },
        }).then(
          () => ({ code: 0, stderr: "" }),
          (error: { code: number; stderr: string }) => error,
        );
        expect(outcome.code).toBe(1);
        expect(outcome.stderr).toContain("release failed: a release to publish ");
        expect(outcome.stderr).toContain("(no --dry-run)");
        expect(outcome.stderr).toContain(
          `placeholder public address ${PLACEHOLDER_PUBLIC_ADDRESS}`,
        );
        expect(outcome.stderr).toContain("Set PUBLIC_ADDRESS");
        await expect(readFile(join(temporary, "release", "release.json"))).rejects.toThrow();
      } finally {
        await rm(temporary, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

/** Whether `command` is on PATH. */
function onPath(command: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describeE2E(
  "the release workflow's Go step",
  () => {
    const address = "github.com/acme/pulumi-voice-platform";
    const version = "0.1.1-rc.7";
    let root: string;

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), "release-workflow-go-"));
    });

    afterAll(async () => {
      if (root !== undefined) await rm(root, { recursive: true, force: true });
    });

    test("tags the release's Go module so that go fetches it by that tag from the repository", async () => {
      // The release's go/ and release.json, as `npm run release` writes them for this address.
      const release = join(root, "release");
      const modulePath = goModulePath(address, version);
      await generateSdks({
        out: join(root, "sdk"),
        languages: ["go"],
        env: { ...process.env, PATH: `${cli!.binDir}${delimiter}${process.env.PATH}` },
        release: {
          version,
          goModulePath: modulePath,
          pluginDownloadURL: publicAddresses(address).pluginDownloadURL,
        },
      });
      await mkdir(release);
      await cp(join(root, "sdk", "go"), join(release, "go"), { recursive: true });
      await writeFile(
        join(release, "release.json"),
        JSON.stringify({ go: { modulePath, tag: goModuleTag(version) } }),
      );
      // The repository the workflow pushes to, and the checkout it runs in (of this commit).
      const origin = join(root, "origin.git");
      const checkout = join(root, "checkout");
      const git = (cwd: string, ...args: string[]) => run("git", args, { cwd });
      await git(root, "clone", "--quiet", "--bare", "--depth", "1", `file://${REPO_ROOT}`, origin);
      await git(root, "clone", "--quiet", origin, checkout);
      const script = step("go-module", (s) => s.run?.includes("git push") ?? false)!.run!;
      await run("bash", ["-e", "-c", script], {
        cwd: checkout,
        env: { ...process.env, RELEASE: release, TAG: `v${version}` },
      });
      expect((await git(origin, "tag")).stdout).toBe(`provider/sdk/go/v${version}\n`);

      // go, asked for the module at its version, finds the repository (GitHub's, here the test's
      // own through git's insteadOf) and the tag, as `go get` would.
      const gitConfig = join(root, "gitconfig");
      await writeFile(gitConfig, `[url "file://${origin}"]\n\tinsteadOf = https://${address}\n`);
      const consumer = join(root, "consumer");
      await mkdir(consumer);
      const goEnv = {
        ...process.env,
        GIT_CONFIG_GLOBAL: gitConfig,
        GOPROXY: "direct",
        GOSUMDB: "off",
        GOFLAGS: "-mod=mod -modcacherw",
        GOMODCACHE: join(root, "modcache"),
      };
      await run("go", ["mod", "init", "consumer"], { cwd: consumer, env: goEnv });
      const { stdout } = await run(
        "go",
        ["mod", "download", "-json", `${modulePath}@v${version}`],
        {
          cwd: consumer,
          env: goEnv,
        },
      );
      const downloaded = JSON.parse(stdout) as { Path: string; Version: string; Dir: string };
      expect(downloaded).toMatchObject({ Path: modulePath, Version: `v${version}` });
      const plugin = JSON.parse(
        await readFile(join(downloaded.Dir, "voiceplatform", "pulumi-plugin.json"), "utf8"),
      ) as { version: string; server: string };
      expect(plugin).toMatchObject({
        version,
        server: `https://${address}/releases/download/v\${VERSION}`,
      });
    });
  },
  [{ available: onPath("jq"), missing: "jq is not on PATH: the workflow's Go step uses it" }],
);
