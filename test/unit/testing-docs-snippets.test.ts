/**
 * docs/testing-your-stacks.md's "What a test project needs" is what the examples run their tests
 * with (examples-own-tests.test.ts runs examples/basic's jest suite and examples/python's pytest
 * suite from copies outside the repository): the package.json snippet is examples/basic's
 * dependencies, devDependencies, test script and jest settings, the requirements snippet is
 * examples/python's requirements-dev.txt, and the conftest line names the SDK's plugin module.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { docsBlock } from "../support/docs-snippets";

const REPO = resolve(__dirname, "../..");
const block = (language: string, file?: string) =>
  docsBlock("testing-your-stacks.md", "### What a test project needs", { language, file });

test("the jest settings are examples/basic's", () => {
  const example = JSON.parse(
    readFileSync(join(REPO, "examples/basic/package.json"), "utf8"),
  ) as Record<string, unknown>;
  expect(JSON.parse(block("json"))).toEqual({
    scripts: example.scripts,
    dependencies: example.dependencies,
    devDependencies: example.devDependencies,
    jest: example.jest,
  });
});

test("the pytest requirements are examples/python's, and the plugin module is the SDK's", () => {
  const lines = (text: string) =>
    text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const example = readFileSync(join(REPO, "examples/python/requirements-dev.txt"), "utf8");
  expect(lines(block("text"))).toEqual(lines(example));
  const plugin = /pytest_plugins = \["([\w.]+)"\]/.exec(block("python", "conftest.py"))?.[1];
  expect(plugin).toBe("pulumi_voiceplatform.pytest_emulator");
  expect(existsSync(join(REPO, "provider/sdk/python", ...plugin!.split(".")) + ".py")).toBe(true);
});
