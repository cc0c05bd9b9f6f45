/**
 * The Python SDK's pytest plugin (pulumi_voiceplatform/pytest_emulator.py, generated) in a pytest
 * session of its own: its `voiceplatform_emulator` fixture starts the emulator once for the
 * session, the tests see its addresses and key in os.environ and reach it, and when the session
 * ends the emulator's PID is gone. The command is this checkout's CLI (the plugin's
 * VOICEPLATFORM_EMULATOR_COMMAND), not npx, which test/package/emulator-ci-recipe.test.ts covers.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { pythonEmulatorFixtureModule } from "../../provider/codegen/python-emulator-fixture";

const run = promisify(execFile);
const REPO = resolve(__dirname, "../..");
const MODULE = join(REPO, "provider/sdk/python/pulumi_voiceplatform/pytest_emulator.py");

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "pytest-emulator-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

test("the committed pytest_emulator.py is the generated one (npm run sdk:generate writes it)", async () => {
  expect(await readFile(MODULE, "utf8")).toBe(pythonEmulatorFixtureModule());
});

test("the fixture serves the session and leaves no emulator process after it", async () => {
  // The module alone (the SDK's package would import pulumi, which this test needs not).
  await writeFile(join(folder, "pytest_emulator.py"), await readFile(MODULE, "utf8"));
  await writeFile(join(folder, "conftest.py"), 'pytest_plugins = ["pytest_emulator"]\n');
  await writeFile(
    join(folder, "test_emulator.py"),
    `import json
import os
import urllib.request


def test_one(voiceplatform_emulator):
    with urllib.request.urlopen(os.environ["VOICEPLATFORM_BASE_URL"] + "/__emulator/state") as answer:
        assert answer.status == 200
    assert os.environ["VOICEPLATFORM_API_KEY"] == "emulator-key"
    with open("seen.json", "a", encoding="utf-8") as seen:
        seen.write(json.dumps({"pid": voiceplatform_emulator.pid}) + "\\n")


def test_two(voiceplatform_emulator):
    with open("seen.json", "a", encoding="utf-8") as seen:
        seen.write(json.dumps({"pid": voiceplatform_emulator.pid}) + "\\n")
`,
  );
  const tsx = pathToFileURL(join(REPO, "node_modules/tsx/dist/loader.mjs")).href;
  const command = [
    process.execPath,
    "--import",
    tsx,
    join(REPO, "provider/cli/main.ts"),
    "emulator",
  ];
  const started = Date.now();
  await run("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"], {
    cwd: folder,
    env: { ...process.env, VOICEPLATFORM_EMULATOR_COMMAND: command.join(" ") },
  });
  const seen = (await readFile(join(folder, "seen.json"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { pid: number }).pid);
  // One emulator for the session.
  expect(seen).toHaveLength(2);
  expect(seen[0]).toBe(seen[1]);
  expect(() => process.kill(seen[0]!, 0)).toThrow();
  expect(Date.now() - started).toBeLessThan(20_000);
});
