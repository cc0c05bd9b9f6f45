/**
 * The package as `npm install pulumi-voice-platform` leaves a project (issue 47): the state
 * backends' clients are optional peers, so none is installed. `preflight` on a file backend needs
 * none; on an S3-compatible backend (moto) it says in one line what to install and exits 2 (a
 * setting of the job to fix: nothing was read or changed). With the client installed, the same
 * command reads the bucket's locks: backend-s3.test.ts (backend-suite.ts's fixture project
 * installs the clients).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { BACKEND_CLIENT_PACKAGES } from "../support/packed-package";
import { backendRequirement, startMoto, type ThrowawayBackend } from "../support/throwaway-backend";
import { cli, describeE2E, E2EProject } from "./harness";
import { voicePlatform } from "./interrupted-run";

const run = promisify(execFile);

describeE2E(
  "preflight in a project without the backend clients (issue 47)",
  () => {
    let project: E2EProject;
    let moto: ThrowawayBackend | undefined;

    beforeAll(async () => {
      project = await E2EProject.create();
    });

    afterAll(async () => {
      await moto?.stop();
      await project?.remove();
    });

    async function initStack(name: string, env: Record<string, string>): Promise<void> {
      await run(cli!.pulumi, ["stack", "init", name], {
        cwd: project.dir,
        env: { ...env, PULUMI_HOME: project.pulumiHome },
      });
    }

    test("the installed package has none of the clients", () => {
      const modules = join(project.dir, "node_modules");
      expect(existsSync(join(modules, "pulumi-voice-platform", "package.json"))).toBe(true);
      expect(BACKEND_CLIENT_PACKAGES.filter((name) => existsSync(join(modules, name)))).toEqual([]);
    });

    test("on a file backend preflight needs none of them: exit 0", async () => {
      const env = project.env({ PULUMI_HOME: project.pulumiHome });
      await initStack("dev", env);
      const result = await voicePlatform(project, env, ["preflight", "--stack", "dev"]);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
      expect(result.stdout).toMatch(/no pending operation/i);
    });

    test("on an S3-compatible backend preflight says in one line what to install, and exits 2", async () => {
      moto = await startMoto();
      const url = await moto.createStore("clients-absent");
      const env = project.env({
        ...moto.env,
        PULUMI_BACKEND_URL: url,
        PULUMI_HOME: project.pulumiHome,
      });
      await initStack("s3-dev", env);
      const result = await voicePlatform(project, env, ["preflight", "--stack", "s3-dev"]);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr:
          'pulumi-voice-platform: An S3-compatible state backend is read and written with the optional package @aws-sdk/client-s3, which is not installed here: run `npm install "@aws-sdk/client-s3@^3.1175.0"` in the project\n',
      });
    });
  },
  [backendRequirement("s3")],
);
