/**
 * backend-suite.ts on an S3-compatible server (moto).
 *
 * @slow about 2 minutes: two rounds of stacks, the lock and killed-runner scenarios
 */
import { describeBackendSuite } from "./backend-suite";

describeBackendSuite("s3");
