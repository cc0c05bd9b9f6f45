import { existsSync, lstatSync, symlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * The examples import the package by name, and the provider process loads its runtime by name
 * from the project directory, as in a user's project. Inside this repository that name is made
 * to resolve to the repository itself (after `npm run build`).
 */
export function linkPackageIntoNodeModules(repoRoot: string): void {
  const link = join(repoRoot, "node_modules", "pulumi-voice-platform");
  if (existsSync(link) || isSymlink(link)) return;
  try {
    symlinkSync("..", link, "dir");
  } catch (error) {
    // Another jest worker made the same link in the meantime.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
