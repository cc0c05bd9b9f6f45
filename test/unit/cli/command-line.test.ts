import { parseCommandLine } from "../../../provider/cli/commands/command-line";
import { UsageError } from "../../../provider/cli/errors";

const URN = "urn:pulumi:dev::voice-app::pulumi-nodejs:dynamic/voiceplatform:SipCarrier::trunk";

describe("parseCommandLine", () => {
  it("reads preflight with --stack and --cwd", () => {
    expect(parseCommandLine(["preflight", "--stack", "org/dev", "--cwd", "infra"])).toEqual({
      command: "preflight",
      stack: "org/dev",
      cwd: "infra",
    });
    expect(parseCommandLine(["preflight"])).toEqual({ command: "preflight" });
  });

  it("keeps each URN=ID whole and collects every --forget", () => {
    const other = URN.replace("::trunk", "::backup");
    expect(
      parseCommandLine([
        "recover",
        `${URN}=abc=`,
        "--forget",
        other,
        "--forget",
        `${other}2`,
        "-s",
        "dev",
      ]),
    ).toEqual({
      command: "recover",
      stack: "dev",
      assignments: [`${URN}=abc=`],
      forget: [other, `${other}2`],
    });
  });

  it("reads --cancel-stale-lock for recover only", () => {
    expect(parseCommandLine(["recover", "--forget", URN, "--cancel-stale-lock"])).toEqual({
      command: "recover",
      assignments: [],
      forget: [URN],
      cancelStaleLock: true,
    });
  });

  it("takes recover without URN=ID: the ids then come from the ledger", () => {
    expect(parseCommandLine(["recover"])).toEqual({
      command: "recover",
      assignments: [],
      forget: [],
    });
  });

  it.each([
    [["preflight", "--cancel-stale-lock"], /--cancel-stale-lock belongs to recover/],
    [[], /no command given/],
    [["deploy"], /unknown command "deploy"/],
    [["preflight", "extra"], /preflight takes no arguments/],
    [["preflight", "--forget", URN], /--forget belongs to recover/],
    [["recover", URN], /has no "=ID"/],
    [["recover", "trunk=abc"], /"trunk=abc" is not a resource URN/],
    [["recover", "--forget", "trunk"], /--forget: "trunk" is not a resource URN/],
    [["recover", "--stack", " ", `${URN}=a`], /--stack is empty/],
    [["preflight", "--stak", "dev"], /Unknown option '--stak'/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError);
    expect(() => parseCommandLine(argv)).toThrow(message);
  });

  it("answers --help", () => {
    expect(parseCommandLine(["recover", "--help"])).toEqual({ command: "help" });
  });
});
