#!/usr/bin/env node
/**
 * The `pulumi-voice-platform` command: `preflight` and `recover` for stacks that a killed
 * `pulumi up` left with interrupted creates, `rekey` for ids an earlier version wrote.
 */
import { parseCommandLine, USAGE, UsageError } from "./command-line";
import { preflight } from "./preflight";
import { recover } from "./recover";
import { rekey } from "./rekey";
import { RecoveryRefused } from "./recovery-plan";

export async function main(argv: readonly string[]): Promise<number> {
  try {
    const command = parseCommandLine(argv);
    if (command.command === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const result =
      command.command === "preflight"
        ? await preflight(command)
        : command.command === "rekey"
          ? await rekey(command)
          : await recover(command);
    process.stdout.write(`${result.text}\n`);
    return result.exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`pulumi-voice-platform: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof RecoveryRefused) {
      process.stderr.write(
        `pulumi-voice-platform: refused, nothing was changed:\n${error.message}\n`,
      );
      return 1;
    }
    process.stderr.write(`pulumi-voice-platform: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
