/**
 * `go build` as the release and the benches use it: statically linked (`CGO_ENABLED=0`), no path
 * of this machine in the binary (`-trimpath`), no state of the checkout in it (`-buildvcs=false`:
 * otherwise Go stamps the commit and whether any file is uncommitted, untracked ones too, so an
 * untracked file would change the archives), modules checked against the committed go.sum.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ReleaseToolError } from "./errors";

const run = promisify(execFile);

export interface GoBuild {
  /** The folder of the Go program, where `go build .` runs. */
  readonly sourceDir: string;
  /** The executable to write. */
  readonly output: string;
  readonly ldflags?: string;
  /** GOOS and GOARCH, for another platform than this one. */
  readonly target?: { readonly goos: string; readonly goarch: string };
  /** What the error says when `go` is not on PATH: what needs it, and what to do instead. */
  readonly withoutGo: string;
  /** What was being built, for the error when the build fails. */
  readonly what: string;
}

export async function goBuild(build: GoBuild): Promise<void> {
  const flags = build.ldflags === undefined ? [] : [`-ldflags=${build.ldflags}`];
  const target =
    build.target === undefined ? {} : { GOOS: build.target.goos, GOARCH: build.target.goarch };
  await run("go", ["build", "-trimpath", "-buildvcs=false", ...flags, "-o", build.output, "."], {
    cwd: build.sourceDir,
    env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=mod", ...target },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { code?: string; stderr?: string }) => {
    throw new ReleaseToolError(
      "go",
      error.code === "ENOENT" ? build.withoutGo : `building ${build.what} failed: ${error.stderr}`,
    );
  });
}
