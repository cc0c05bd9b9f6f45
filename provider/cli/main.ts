#!/usr/bin/env node
/**
 * The `pulumi-voice-platform` command: `preflight` and `recover` for stacks that a killed
 * `pulumi up` left with interrupted creates, `rekey` for ids an earlier version wrote,
 * `policy-pack` for the platform's rules as a policy pack, `emulator` for a local stand-in for
 * the platform.
 */
import { backendTimeoutSeconds } from "./backends/backend-deadline";
import { parseCommandLine, USAGE } from "./commands/command-line";
import { EXIT } from "./commands/command-result";
import { runEmulator } from "./commands/emulator-command";
import { leftovers } from "./commands/leftovers";
import { writePolicyPack } from "./commands/policy-pack";
import { preflight } from "./commands/preflight";
import { recover } from "./commands/recover";
import { rekey } from "./commands/rekey";
import {
  BackendReadError,
  CommandSettingError,
  LockedRefusal,
  PulumiCliError,
  RecoveryRefused,
  StackNotFoundError,
  UsageError,
} from "./errors";

export async function main(argv: readonly string[]): Promise<number> {
  try {
    const command = parseCommandLine(argv);
    if (command.command === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (command.command === "emulator") return await runEmulator(command.argv);
    if (command.command === "leftovers") {
      const result = await leftovers(command.argv);
      process.stdout.write(`${result.text}\n`);
      return result.exitCode;
    }
    // A limit that cannot be used stops the command before it reads anything.
    backendTimeoutSeconds();
    const result =
      command.command === "preflight"
        ? await preflight(command)
        : command.command === "rekey"
          ? await rekey(command)
          : command.command === "policy-pack"
            ? await writePolicyPack(command)
            : await recover(command);
    process.stdout.write(`${result.text}\n`);
    return result.exitCode;
  } catch (error) {
    const { message, exitCode } = failure(error);
    process.stderr.write(`pulumi-voice-platform: ${message}\n`);
    return exitCode;
  }
}

/** What a failure prints and the exit status it is (EXIT): one status per kind of failure. */
export function failure(error: unknown): { message: string; exitCode: number } {
  if (error instanceof UsageError)
    return { message: `${error.message}\n\n${USAGE}`, exitCode: EXIT.usage };
  if (error instanceof RecoveryRefused) {
    return {
      message: `refused, nothing was changed:\n${error.message}`,
      exitCode: error instanceof LockedRefusal ? EXIT.lockedByUpdate : EXIT.refused,
    };
  }
  const message = (error as Error).message ?? String(error);
  if (error instanceof CommandSettingError) return { message, exitCode: EXIT.usage };
  if (error instanceof StackNotFoundError) return { message, exitCode: EXIT.stackNotFound };
  if (error instanceof BackendReadError || error instanceof PulumiCliError) {
    return { message, exitCode: EXIT.backendUnreadable };
  }
  return { message, exitCode: EXIT.refused };
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
