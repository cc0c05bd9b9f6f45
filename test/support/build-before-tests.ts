/**
 * jest's globalSetup of the process and engine tiers: the package built (unless dist/ already is
 * the build of the sources) and packed once, before any test file starts. Their test files load
 * dist/ (the examples and stamp-out runners through the repository, the plugin on PATH) while
 * others pack the package: a build started by the first file to pack removed dist/ under the files
 * running beside it whenever the sources had changed since the last build.
 */
import { packPackage } from "./packed-package";

export default async function buildBeforeTests(): Promise<void> {
  await packPackage();
}
