/**
 * The engine tests on Pulumi's PostgreSQL state backend: a throwaway server per test file
 * (test/support/postgres.ts, started in about a second). Without PostgreSQL's binaries the suite
 * says how to install them and is skipped, or fails when CI is set.
 */
import { describeE2E } from "./harness";
import { backendRequirement } from "../support/throwaway-backend";

/** describeE2E, when PostgreSQL's server binaries are installed too. */
export function describeOnPostgres(title: string, body: () => void): void {
  describeE2E(title, body, [backendRequirement("postgres")]);
}
