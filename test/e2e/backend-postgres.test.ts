/**
 * backend-suite.ts on PostgreSQL, a throwaway server (test/support/postgres.ts): the locks and the
 * killed runner; its stamp-out runs in postgres-stamp-out.test.ts.
 *
 * @slow about 1 minute: the lock and killed-runner scenarios
 */
import { describeBackendSuite } from "./backend-suite";

describeBackendSuite("postgres");
