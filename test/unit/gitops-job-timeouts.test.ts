/**
 * Issue 38: a job of the GitOps example without `timeout-minutes` runs for GitHub's default of
 * 6 hours when something it waits on stops answering, holding its stack's deploy queue. Every job
 * sets one: longer than the script's wait for another update's lock plus room for the install and
 * the run, and far shorter than the default.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { load } from "js-yaml";

const GITOPS = join(__dirname, "..", "..", "examples", "gitops");
/** What an install, a preflight and a preview or deploy of a usual stack get beside the lock wait. */
const ROOM_MINUTES = 10;
const GITHUB_DEFAULT_MINUTES = 360;

test("every job of the GitOps workflow has a timeout above the lock wait, far below GitHub's default", () => {
  const workflow = load(readFileSync(join(GITOPS, "voice-platform.yml"), "utf8")) as {
    jobs: Record<string, { "timeout-minutes"?: unknown }>;
  };
  const script = readFileSync(join(GITOPS, "voice-platform.sh"), "utf8");
  const lockWaitSeconds = Number(/LOCK_WAIT_SECONDS:-(\d+)/.exec(script)?.[1]);
  expect(lockWaitSeconds).toBeGreaterThan(0);

  const jobs = Object.entries(workflow.jobs);
  expect(jobs.length).toBeGreaterThan(0);
  for (const [name, job] of jobs) {
    const minutes = job["timeout-minutes"];
    expect({ name, minutes: typeof minutes }).toEqual({ name, minutes: "number" });
    expect(minutes as number).toBeGreaterThanOrEqual(lockWaitSeconds / 60 + ROOM_MINUTES);
    expect(minutes as number).toBeLessThanOrEqual(GITHUB_DEFAULT_MINUTES / 3);
  }
});
