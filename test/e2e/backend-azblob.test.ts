/**
 * backend-suite.ts on Azurite, the Azure Blob emulator.
 *
 * @slow about 2 minutes: two rounds of stacks, the lock and killed-runner scenarios
 */
import { describeBackendSuite } from "./backend-suite";

describeBackendSuite("azblob");
