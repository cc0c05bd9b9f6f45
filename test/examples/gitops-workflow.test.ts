/**
 * examples/gitops/voice-platform.yml checked as GitHub would read it: actionlint (built from the Go
 * module proxy by `npm run tools:install`) finds nothing in it, and does find a mistake planted in a
 * copy (so the check can fail); every action is taken at a version, never a branch; the Pulumi CLI
 * at the version the package is tested with; secrets only in the one step that runs the script,
 * each the one the README tells the reader to create for that job; `id-token: write` only in the
 * job whose role-based logins need it; every pull request runs the project's own tests without a
 * secret, and preview and up the package's policy pack; the script the jobs call is valid bash.
 * test/e2e/gitops-steps.test.ts runs the jobs' commands, gitops-policy-pack.test.ts the script
 * with the pack.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { load } from "js-yaml";
import { pulumiVersionSettings, REPO_ROOT } from "../pulumi-cli/locate";
import { actionlint, describeWithTools } from "../support/test-tools";

const run = promisify(execFile);
const WORKFLOW = join(REPO_ROOT, "examples/gitops/voice-platform.yml");
const SCRIPT = join(REPO_ROOT, "examples/gitops/voice-platform.sh");
const README = join(REPO_ROOT, "examples/gitops/README.md");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  if?: string;
}

interface Job {
  if?: string;
  env?: Record<string, string>;
  environment?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}

/** The `secrets.NAME` a piece of the workflow reads, sorted. */
function secretsIn(value: unknown): string[] {
  const names = [...JSON.stringify(value ?? {}).matchAll(/secrets\.([A-Z0-9_]+)/g)].map(
    (m) => m[1]!,
  );
  return [...new Set(names)].sort();
}

/** The backquoted names in the README's "Secrets" table row that starts with `label`. */
function readmeRow(label: string): string[] {
  const row = readFileSync(README, "utf8")
    .split("\n")
    .find((line) => line.startsWith(`| ${label}`));
  if (row === undefined) throw new Error(`README.md has no table row starting "| ${label}"`);
  const cells = row.split("|").slice(2).join("|");
  return [...cells.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!);
}

/** -shellcheck= : the run: lines are one command each; the script is checked below. */
const lint = (file: string) => actionlint(file, ["-shellcheck="]);

describeWithTools(["actionlint"], "the GitOps workflow", () => {
  test("actionlint passes on it", async () => {
    expect(await lint(WORKFLOW)).toEqual({ code: 0, findings: "" });
  });

  test("actionlint fails on a copy that reads a matrix key the job does not have", async () => {
    const dir = mkdtempSync(join(tmpdir(), "actionlint-"));
    try {
      const broken = join(dir, "voice-platform.yml");
      const text = readFileSync(WORKFLOW, "utf8");
      writeFileSync(broken, text.replace("${{ matrix.stack }}", "${{ matrix.stacks }}"));
      const result = await lint(broken);
      expect(result.code).toBe(1);
      expect(result.findings).toMatch(/property "stacks" is not defined/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the GitOps workflow's actions and script", () => {
  const workflow = load(readFileSync(WORKFLOW, "utf8")) as {
    permissions: Record<string, string>;
    env?: Record<string, string>;
    jobs: Record<"test" | "preview" | "up", Job>;
  };
  const { test: tests, preview, up } = workflow.jobs;
  const scriptStep = (job: Job) =>
    job.steps.find((step) => step.run?.includes("voice-platform.sh"))!;

  test("secrets reach only the step that runs the script; npm ci installs without scripts and secrets", () => {
    expect(secretsIn(workflow.env)).toEqual([]);
    for (const job of [preview, up]) {
      expect(secretsIn(job.env)).toEqual([]);
      const script = scriptStep(job);
      expect(job.steps.at(-1)).toBe(script);
      expect(secretsIn(script.env).length).toBeGreaterThan(0);
      for (const step of job.steps.filter((s) => s !== script)) {
        expect({ step: step.name ?? step.uses ?? step.run, secrets: secretsIn(step) }).toEqual({
          step: step.name ?? step.uses ?? step.run,
          secrets: [],
        });
      }
      const install = job.steps.find((step) => step.run?.startsWith("npm "));
      expect(install?.run).toBe("npm ci --ignore-scripts");
    }
    expect(secretsIn(preview)).not.toContain("VOICEPLATFORM_API_KEY");
    expect(scriptStep(up).env?.VOICEPLATFORM_API_KEY).toBe("${{ secrets.VOICEPLATFORM_API_KEY }}");
  });

  test("each job reads only the secrets the README lists for where it runs", () => {
    const repository = readmeRow("repository secrets");
    const production = readmeRow("`production` environment");
    expect(preview.environment).toBeUndefined();
    expect(up.environment).toBe("production");
    // A pull request's job sees repository secrets; the protected environment's are not for it.
    for (const name of secretsIn(preview))
      expect({ name, listed: repository.includes(name) }).toEqual({ name, listed: true });
    for (const name of secretsIn(up))
      expect({ name, listed: production.includes(name) }).toEqual({ name, listed: true });
    expect(secretsIn(preview)).toContain("STATE_READ_PULUMI_ACCESS_TOKEN");
    expect(secretsIn(preview)).not.toContain("PULUMI_ACCESS_TOKEN");
  });

  test("id-token: write only in the up job, which runs the role-based logins", () => {
    expect(workflow.permissions).toEqual({ contents: "read" });
    expect(preview.permissions).toBeUndefined();
    expect(up.permissions).toEqual({ contents: "read", "id-token": "write" });
    const logins = up.steps.filter((step) =>
      /^(aws-actions\/configure-aws-credentials|azure\/login)@/.test(step.uses ?? ""),
    );
    expect(logins.map((step) => step.uses!.split("@")[0])).toEqual([
      "aws-actions/configure-aws-credentials",
      "azure/login",
    ]);
    // A step's env wins over what an earlier step exported: without stored keys (empty secrets),
    // the role's credentials must stay in place.
    for (const name of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]) {
      expect(scriptStep(up).env?.[name]).toBe(`\${{ secrets.${name} || env.${name} }}`);
    }
    // Each runs only when configured, after npm ci and before the script.
    const index = (step: Step) => up.steps.indexOf(step);
    for (const login of logins) {
      expect(login.if).toMatch(/^vars\.[A-Z_]+ != ''$/);
      expect(index(login)).toBeGreaterThan(up.steps.findIndex((s) => s.run?.startsWith("npm ")));
      expect(index(login)).toBeLessThan(index(scriptStep(up)));
    }
  });

  test("every pull request, forks' too, runs the project's own tests (npm test) with no secret", () => {
    expect(tests.if).toBe("github.event_name == 'pull_request'");
    expect(secretsIn(tests)).toEqual([]);
    expect(tests.environment).toBeUndefined();
    expect(tests.permissions).toBeUndefined();
    const runs = tests.steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
    expect(runs).toEqual(["npm ci --ignore-scripts", "npm test"]);
  });

  test("preview and up run the package's policy pack", () => {
    for (const job of [preview, up]) {
      expect(scriptStep(job).env?.POLICY_PACK).toBe(
        "node_modules/pulumi-voice-platform/dist/provider/policy/pack",
      );
    }
  });

  test("the Pulumi CLI is pinned to the version CI tests the package with (config.pulumiCli)", () => {
    for (const job of [tests, preview, up]) {
      const install = job.steps.filter((step) => step.uses?.startsWith("pulumi/actions@"));
      expect(install).toHaveLength(1);
      expect(install[0]!.with?.["pulumi-version"]).toBe(pulumiVersionSettings().pulumiCli);
    }
  });

  test("every action is taken at a version tag or a commit, never a branch", () => {
    const uses = Object.values(workflow.jobs).flatMap((job) =>
      job.steps.flatMap((step) => (step.uses === undefined ? [] : [step.uses])),
    );
    expect(uses.length).toBeGreaterThan(0);
    for (const action of uses)
      expect(action).toMatch(/^[\w.-]+\/[\w.-]+@(v\d+(\.\d+)*|[0-9a-f]{40})$/);
  });

  test("the script the jobs call is valid bash", async () => {
    await expect(run("bash", ["-n", SCRIPT])).resolves.toMatchObject({ stderr: "" });
  });
});
