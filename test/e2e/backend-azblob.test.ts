/**
 * backend-suite.ts on Azurite, the Azure Blob emulator.
 *
 * @slow about 2 minutes: two rounds of stacks, the lock and killed-runner scenarios
 */
import { describeBucketBackend } from "./backend-suite";

describeBucketBackend("azblob");
