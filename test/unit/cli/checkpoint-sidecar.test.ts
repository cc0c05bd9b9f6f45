/**
 * A file backend whose checkpoint sidecar a killed `pulumi` cut short: which files are found, and
 * the advice removes only what is safe to remove.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  brokenCheckpointSidecars,
  brokenSidecarAdvice,
} from "../../../provider/cli/backends/checkpoint-sidecar";

const CHECKPOINT = '{"version":3,"checkpoint":{"stack":"organization/proj/dev"}}';
const SIDECAR = '{"user.content_type":"application/octet-stream","md5":"AAAA"}\n';

describe("checkpoint sidecars a killed run cut short", () => {
  let backend: string;
  let stacks: string;

  beforeEach(() => {
    backend = mkdtempSync(join(tmpdir(), "voiceplatform-sidecar-"));
    stacks = join(backend, ".pulumi", "stacks", "proj");
    mkdirSync(stacks, { recursive: true });
    for (const name of ["dev", "prod"]) {
      writeFileSync(join(stacks, `${name}.json`), CHECKPOINT);
      writeFileSync(join(stacks, `${name}.json.attrs`), SIDECAR);
    }
  });

  afterEach(() => rmSync(backend, { recursive: true, force: true }));

  test("sidecars that parse are not reported", () => {
    expect(brokenCheckpointSidecars(backend, "dev")).toEqual([]);
    expect(brokenCheckpointSidecars(backend)).toEqual([]);
  });

  test.each([
    ["an empty sidecar", "", 0],
    ["a sidecar cut short", '{"user.content_type":"appl', 26],
  ])("%s is found, with its checkpoint judged intact", (_case, text, bytes) => {
    const sidecar = join(stacks, "dev.json.attrs");
    writeFileSync(sidecar, text);
    const broken = brokenCheckpointSidecars(backend, "organization/proj/dev");
    expect(broken).toEqual([
      { sidecar, bytes, checkpoint: join(stacks, "dev.json"), checkpointIntact: true },
    ]);
    const advice = brokenSidecarAdvice(broken[0]!);
    expect(advice).toContain(`rm '${sidecar}'`);
    expect(advice).toContain("failed to load checkpoint: EOF");
  });

  test("another stack's broken sidecar is not this stack's", () => {
    writeFileSync(join(stacks, "prod.json.attrs"), "");
    expect(brokenCheckpointSidecars(backend, "dev")).toEqual([]);
    expect(brokenCheckpointSidecars(backend).map((b) => b.sidecar)).toEqual([
      join(stacks, "prod.json.attrs"),
    ]);
  });

  test("the older layout without projects is read too", () => {
    const legacy = join(backend, ".pulumi", "stacks");
    writeFileSync(join(legacy, "old.json"), CHECKPOINT);
    writeFileSync(join(legacy, "old.json.attrs"), "");
    expect(brokenCheckpointSidecars(backend, "old").map((b) => b.sidecar)).toEqual([
      join(legacy, "old.json.attrs"),
    ]);
  });

  test("a checkpoint that does not parse either: nothing is to be removed", () => {
    writeFileSync(join(stacks, "dev.json"), CHECKPOINT.slice(0, 20));
    writeFileSync(join(stacks, "dev.json.attrs"), "");
    const [broken] = brokenCheckpointSidecars(backend, "dev");
    expect(broken?.checkpointIntact).toBe(false);
    const advice = brokenSidecarAdvice(broken!);
    expect(advice).not.toContain("rm '");
    expect(advice).toContain("remove nothing yet");
    expect(advice).toContain(`${join(stacks, "dev.json")}.bak`);
  });

  test("a backend without stacks has nothing to report", () => {
    expect(brokenCheckpointSidecars(join(backend, "nowhere"), "dev")).toEqual([]);
  });
});
