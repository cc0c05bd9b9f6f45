/**
 * The release tools' refusals carry their class (provider/release/errors.ts), so a caller tells a
 * bad input from a refused publish from a failed tool without reading the sentence.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkDownloadUrl } from "../../provider/release/download-url";
import {
  PublishRefusal,
  ReleaseError,
  ReleaseInputError,
  ReleaseToolError,
} from "../../provider/release/errors";
import { publishToDownloadFolder } from "../../provider/release/plugin-download-folder";
import { runPublishingTool } from "../../provider/release/publishing-tool";
import { versionFromTag } from "../../provider/release/release-version";
import { VoicePlatformError } from "../../provider/settings/errors";
import { thrownBy } from "../support/thrown";

test("a bad option to the release is a ReleaseInputError naming the option", () => {
  const tag = thrownBy(() => versionFromTag("v1.0.0+build.5"));
  expect(tag).toBeInstanceOf(ReleaseInputError);
  expect(tag).toBeInstanceOf(ReleaseError);
  expect(tag).toBeInstanceOf(VoicePlatformError);
  expect(tag).toMatchObject({ name: "ReleaseInputError", input: "--tag" });

  const url = thrownBy(() => checkDownloadUrl("http://example.com/"));
  expect(url).toBeInstanceOf(ReleaseInputError);
  expect(url).toMatchObject({ input: "--plugin-download-url" });
});

describe("publishing", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "release-errors-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test("an archive published earlier with other bytes is a PublishRefusal naming the archive", async () => {
    const folder = join(root, "download");
    await mkdir(folder);
    const name = "pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz";
    await writeFile(join(folder, name), "published earlier");
    const file = join(root, name);
    await writeFile(file, "rebuilt");
    const sha256 = createHash("sha256").update("rebuilt").digest("hex");
    const refusal = await publishToDownloadFolder(folder, [{ file, sha256 }]).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(PublishRefusal);
    expect(refusal).toMatchObject({ name: "PublishRefusal", artifact: name });
  });

  test("a publishing tool that fails is a ReleaseToolError naming its command", async () => {
    const failed = await runPublishingTool(process.execPath, ["-e", "process.exit(3)"], {
      env: process.env,
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ReleaseToolError);
    expect(failed).not.toBeInstanceOf(PublishRefusal);
    expect((failed as ReleaseToolError).tool).toContain("process.exit(3)");
  });
});
