/**
 * One exit status per kind of outcome, so a pipeline can act on it: the table `--help` prints is
 * the one main() returns.
 */
import { USAGE } from "../../../provider/cli/commands/command-line";
import { failure } from "../../../provider/cli/main";
import { EXIT } from "../../../provider/cli/commands/command-result";
import { readFailure } from "../../../provider/cli/backends/pulumi-stack";
import {
  BackendReadError,
  LockedRefusal,
  PulumiCliError,
  RecoveryRefused,
  StackNotFoundError,
  UsageError,
} from "../../../provider/cli/errors";

/** What CLI 3.248 prints for `pulumi stack export --stack prod` on a backend without the stack (exit 6). */
const NO_STACK = "error: no stack named 'organization/voice/prod' found\n";
/**
 * What CLI 3.248 prints when a brand-new Azure Blob container is opened with a read-only SAS token
 * (measured on Azurite): the diy backend's first write, which only a backend without stacks gets.
 */
const NEW_BACKEND_READ_ONLY =
  'error: write ".pulumi/meta.yaml": blob (key ".pulumi/meta.yaml") (code=Unknown): PUT http://127.0.0.1:46767/devstoreaccount1/fresh/.pulumi/meta.yaml\n' +
  "RESPONSE 403: 403 This request is not authorized to perform this operation using this permission.\n" +
  "ERROR CODE: AuthorizationPermissionMismatch\n";
/**
 * What CLI 3.274.1 prints for the same read (measured on Azurite): it crashes in that write, and
 * its stack trace (shortened here) runs through the diy backend's ensurePulumiMeta.
 */
const NEW_BACKEND_READ_ONLY_PANIC = [
  "The Pulumi CLI encountered a fatal error. This is a bug!",
  "Pulumi Version:   v3.274.1",
  "Panic:            runtime error: invalid memory address or nil pointer dereference",
  "gocloud.dev/blob/azureblob.(*writer).Close(0x323b6d2c17c0)",
  "github.com/pulumi/pulumi/pkg/v3/backend/diy.(*pulumiMeta).WriteTo(0x323b6caf3330?, {0x4ba2898, 0x323b6c5dc1b0}, {0x4bbfa90, 0x323b6ba90328})",
  "github.com/pulumi/pulumi/pkg/v3/backend/diy.ensurePulumiMeta({0x4ba2898, 0x323b6c5dc1b0}, {0x4bbfa90, 0x323b6ba90328}, {0x4ba27b8, 0x323b6caf2d70})",
  "",
].join("\n");
/** Any other crash of the CLI is no proof of an empty backend. */
const OTHER_PANIC = [
  "The Pulumi CLI encountered a fatal error. This is a bug!",
  "Panic:            runtime error: invalid memory address or nil pointer dereference",
  "github.com/pulumi/pulumi/pkg/v3/backend/diy.(*diyBackend).GetStack(0x0)",
  "",
].join("\n");
const NO_BUCKET =
  "error: unable to open bucket file:///nonexistent/x?no_tmp_dir=true: stat /nonexistent/x: no such file or directory\n";

describe("exit codes", () => {
  it("are distinct for pending, usage, locked, missing stack and unreadable backend", () => {
    const codes = [
      EXIT.pending,
      EXIT.usage,
      EXIT.lockedByUpdate,
      EXIT.stackNotFound,
      EXIT.backendUnreadable,
    ];
    expect(new Set(codes).size).toBe(codes.length);
    expect(EXIT.clean).toBe(0);
  });

  it("are the ones --help documents", () => {
    for (const [code, meaning] of [
      [EXIT.clean, "nothing pending"],
      [EXIT.pending, "pending operations of a stopped run"],
      [EXIT.usage, "bad command line"],
      [EXIT.lockedByUpdate, "locked by an update that may still be running"],
      [EXIT.stackNotFound, "the stack does not exist on the backend"],
      [EXIT.backendUnreadable, "the backend could not be read"],
    ] as const) {
      expect(USAGE).toMatch(new RegExp(`^  ${code}  ${meaning}`, "m"));
    }
  });

  it("map each failure to its status", () => {
    const stackMissing = readFailure(
      new PulumiCliError(["stack", "export"], NO_STACK, "exit code 6"),
      { stack: "organization/voice/prod" },
    );
    expect(stackMissing).toBeInstanceOf(StackNotFoundError);
    expect((stackMissing as Error).message).toMatch("stack organization/voice/prod does not exist");
    expect((stackMissing as Error).message).toMatch("`pulumi stack init`");
    const unreadable = readFailure(
      new PulumiCliError(["stack", "export"], NO_BUCKET, "exit code 1"),
      {},
    );
    expect(unreadable).toBeInstanceOf(BackendReadError);
    expect((unreadable as Error).message).toMatch("could not read the current stack");
    expect((unreadable as Error).message).toMatch("Check PULUMI_BACKEND_URL");

    // A brand-new backend read with read-only credentials holds no stack: 4, not 5.
    const neverWritten = readFailure(
      new PulumiCliError(["stack", "export"], NEW_BACKEND_READ_ONLY, "exit code 1"),
      { stack: "organization/voice/prod" },
    );
    expect(neverWritten).toBeInstanceOf(StackNotFoundError);
    expect((neverWritten as Error).message).toMatch("stack organization/voice/prod does not exist");
    expect((neverWritten as Error).message).toMatch("holds no stack yet");
    expect((neverWritten as Error).message).toMatch("read-only credentials");
    expect(failure(neverWritten).exitCode).toBe(EXIT.stackNotFound);
    const crashedWriting = readFailure(
      new PulumiCliError(["stack", "export"], NEW_BACKEND_READ_ONLY_PANIC, "exit code 1"),
      { stack: "organization/voice/prod" },
    );
    expect(failure(crashedWriting).exitCode).toBe(EXIT.stackNotFound);
    const crashedElsewhere = readFailure(
      new PulumiCliError(["stack", "export"], OTHER_PANIC, "exit code 1"),
      { stack: "organization/voice/prod" },
    );
    expect(failure(crashedElsewhere).exitCode).toBe(EXIT.backendUnreadable);

    expect(failure(new UsageError("no command given")).exitCode).toBe(EXIT.usage);
    expect(failure(new RecoveryRefused("x")).exitCode).toBe(EXIT.refused);
    expect(failure(new LockedRefusal("x")).exitCode).toBe(EXIT.lockedByUpdate);
    expect(failure(stackMissing).exitCode).toBe(EXIT.stackNotFound);
    expect(failure(unreadable).exitCode).toBe(EXIT.backendUnreadable);
    expect(failure(new BackendReadError("lock rows unreadable")).exitCode).toBe(
      EXIT.backendUnreadable,
    );
  });
});
