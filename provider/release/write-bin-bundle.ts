/**
 * `npm run build`'s last step: the plugin bundled by esbuild into one file,
 * dist/provider/plugin/pulumi-resource-voiceplatform.js (and its licenses), which the package's
 * bin and its `./plugin` export run. One file instead of ~200 found through node_modules at every
 * start, with its own copies of gRPC and Pulumi's protocol messages (the ones it was built and
 * tested with). A maintainer's tool, run from the sources by tsx (`tsx
 * provider/release/write-bin-bundle.ts`): provider/release is not built into dist/, which ships.
 */
import { join } from "node:path";
import { packageVersion } from "../schema/package-schema";
import { PLUGIN_NAME } from "./plugin-archive";
import { bundlePlugin } from "./plugin-bundle";

const PLUGIN_DIST = join(__dirname, "..", "..", "dist", "provider", "plugin");

bundlePlugin(PLUGIN_DIST, PLUGIN_NAME, packageVersion()).catch((error: unknown) => {
  process.stderr.write(`bundling the plugin failed: ${String(error)}\n`);
  process.exitCode = 1;
});
