/**
 * The emulator command's flags: what each gives startEmulator, and a refusal naming the flag and
 * the fix for each bad one (test/emulator/cli.test.ts runs the command itself).
 */
import { UsageError } from "../../../provider/cli/errors";
import { emulatorOptions } from "../../../provider/cli/commands/emulator-command";

test("defaults: ports 4010 and 4011, the default key, nothing else", () => {
  expect(emulatorOptions([])).toEqual({
    port: 4010,
    campaignsPort: 4011,
    apiKey: undefined,
    subOrganizationIds: undefined,
    stateFile: undefined,
    faults: undefined,
    answers: undefined,
    latencyMs: undefined,
    rateLimit: undefined,
    seed: undefined,
    readyFile: undefined,
    outliveParent: false,
  });
});

test("every flag reaches its option; --port 0 picks a free campaigns port too", () => {
  expect(
    emulatorOptions([
      "--port",
      "0",
      "--api-key",
      "team-key",
      "--sub-org",
      "a",
      "--sub-org",
      "b",
      "--state",
      "emulator.json",
      "--faults",
      "rate-limited, echo",
      "--answers",
      "extended",
      "--latency-ms",
      "5",
      "--rate-limit",
      "10",
      "--seed=-3",
      "--ready-file",
      "emulator.env",
      "--outlive-parent",
    ]),
  ).toEqual({
    port: 0,
    campaignsPort: 0,
    apiKey: "team-key",
    subOrganizationIds: ["a", "b"],
    stateFile: "emulator.json",
    faults: ["rate-limited", "echo"],
    answers: "extended",
    latencyMs: 5,
    rateLimit: 10,
    seed: -3,
    readyFile: "emulator.env",
    outliveParent: true,
  });
  expect(emulatorOptions(["--port", "0", "--campaigns-port", "4011"])).toMatchObject({
    port: 0,
    campaignsPort: 4011,
  });
});

test.each([
  [
    ["--rate-limit", "fast"],
    '--rate-limit must be an integer from 1 to 9007199254740991; got "fast"',
  ],
  [["--rate-limit", "0"], "--rate-limit must be an integer from 1"],
  [["--port", "70000"], '--port must be an integer from 0 to 65535; got "70000"'],
  [["--campaigns-port=-1"], "--campaigns-port must be an integer from 0 to 65535"],
  [["--latency-ms", "1.5"], "--latency-ms must be an integer from 0"],
  [
    ["--faults", "flaky"],
    '--faults names no profile "flaky"; use one or more of latency, rate-limited, server-errors, lost-answer, echo, separated by commas',
  ],
  [["--faults", "latency,"], '--faults names no profile ""'],
  [["--answers", "rich"], '--answers must be spec or extended; got "rich"'],
  [["--ready-file="], "--ready-file is empty; give a file path"],
  [["--api-key", ""], "--api-key is empty or holds a space"],
  [["--api-key", "Bearer key"], "--api-key is empty or holds a space"],
  [["--colour"], "Unknown option '--colour'"],
  [["extra"], "emulator: Unexpected argument 'extra'"],
])("refuses %j: %s", (args, message) => {
  expect(() => emulatorOptions(args)).toThrow(UsageError);
  expect(() => emulatorOptions(args)).toThrow(message);
});
