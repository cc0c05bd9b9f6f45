/**
 * examples/gitops/voice-platform.yml checked as GitHub would read it: actionlint (built from the Go
 * module proxy by `npm run tools:install`) finds nothing in it, and does find a mistake planted in a
 * copy (so the check can fail); every action is taken at a version, never a branch; the script the
 * jobs call is valid bash. test/e2e/gitops-steps.test.ts runs the jobs' commands.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { load } from "js-yaml";
import { REPO_ROOT } from "../pulumi-cli/locate";
import { describeWithTools, locateTool } from "../support/test-tools";

const run = promisify(execFile);
const WORKFLOW = join(REPO_ROOT, "examples/gitops/voice-platform.yml");
const SCRIPT = join(REPO_ROOT, "examples/gitops/voice-platform.sh");

/** actionlint's exit code and findings for a workflow file. */
async function actionlint(file: string): Promise<{ code: number; findings: string }> {
  try {
    // -shellcheck= : the run: lines are one command each; the script is checked below.
    const { stdout } = await run(locateTool("actionlint")!, ["-shellcheck=", "-no-color", file]);
    return { code: 0, findings: stdout };
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    return { code, findings: stdout };
  }
}

describeWithTools(["actionlint"], "the GitOps workflow", () => {
  test("actionlint passes on it", async () => {
    expect(await actionlint(WORKFLOW)).toEqual({ code: 0, findings: "" });
  });

  test("actionlint fails on a copy that reads a matrix key the job does not have", async () => {
    const dir = mkdtempSync(join(tmpdir(), "actionlint-"));
    try {
      const broken = join(dir, "voice-platform.yml");
      const text = readFileSync(WORKFLOW, "utf8");
      writeFileSync(broken, text.replace("${{ matrix.stack }}", "${{ matrix.stacks }}"));
      const result = await actionlint(broken);
      expect(result.code).toBe(1);
      expect(result.findings).toMatch(/property "stacks" is not defined/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the GitOps workflow's actions and script", () => {
  const workflow = load(readFileSync(WORKFLOW, "utf8")) as {
    jobs: Record<string, { steps: { uses?: string }[] }>;
  };

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
