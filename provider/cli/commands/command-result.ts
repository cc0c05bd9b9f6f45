/** What a command of `pulumi-voice-platform` answers: the text it prints and its exit status. */
export interface CommandResult {
  readonly exitCode: number;
  readonly text: string;
}

/**
 * The exit statuses of every command, one meaning each, so a pipeline can act on them: 0 done or
 * nothing pending; 1 pending operations of a stopped run (preflight) or a refusal, nothing changed
 * (recover, rekey); 2 a bad command line or setting (a backend's client not installed, too); 3
 * locked by an update that may still be running; 4 the stack does not exist; 5 the backend (state
 * or locks) could not be read, or the Pulumi CLI could not run.
 */
export const EXIT = {
  clean: 0,
  pending: 1,
  refused: 1,
  usage: 2,
  lockedByUpdate: 3,
  stackNotFound: 4,
  backendUnreadable: 5,
} as const;
