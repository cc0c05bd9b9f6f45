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
  symlinkSync("..", link, "dir");
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
