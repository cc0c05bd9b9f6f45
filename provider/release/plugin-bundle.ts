/**
 * The plugin process as one JavaScript file: provider/plugin/main.ts bundled by esbuild with every
 * dependency inside, so nothing is resolved from node_modules at run time. No source map: nothing
 * reads one at run time, and a map would carry the whole source and this machine's paths. The
 * licenses of what is bundled go beside it (`<file>.LEGAL.txt`).
 */
import { dirname, join } from "node:path";
import { build, type Plugin } from "esbuild";

const REPO_ROOT = join(__dirname, "..", "..");
/** The plugin as a script, and the single executable's startup-snapshot entry that loads it. */
const ENTRIES = {
  main: join(REPO_ROOT, "provider", "plugin", "main.ts"),
  snapshot: join(REPO_ROOT, "provider", "plugin", "snapshot-main.ts"),
} as const;
export type BundleEntry = keyof typeof ENTRIES;

/** The Node.js version the bundle is built for and needs (package.json engines). */
export const BUNDLE_NODE_TARGET = "node20.19";

/**
 * Loads gRPC and the generated messages the way the bundle can: pulumi-protocol.ts resolves them
 * at run time through @pulumi/pulumi, which esbuild cannot follow, so the bundled twin replaces it;
 * and `@grpc/grpc-js` and `google-protobuf` resolve from @pulumi/pulumi's folder for every
 * importer, so the bundle holds the copies its generated messages were built with.
 */
function pulumiProtocol(): Plugin {
  const pulumiDir = dirname(require.resolve("@pulumi/pulumi/package.json"));
  return {
    name: "pulumi-protocol",
    setup(bundle) {
      bundle.onResolve({ filter: /^\.\/pulumi-protocol$/ }, (args) => ({
        path: join(args.resolveDir, "pulumi-protocol.bundled.ts"),
      }));
      bundle.onResolve({ filter: /^(@grpc\/grpc-js|google-protobuf)(\/|$)/ }, async (args) => {
        if (args.pluginData === "from-pulumi") return undefined;
        const resolved = await bundle.resolve(args.path, {
          kind: args.kind,
          resolveDir: pulumiDir,
          pluginData: "from-pulumi",
        });
        return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path };
      });
    },
  };
}

export interface BundleResult {
  /** The bundle. */
  file: string;
  /** How many source files went in, node_modules included. */
  inputs: number;
}

/**
 * Writes `<outDir>/<name>.js` and its licenses; `version` is what the plugin reports (GetSchema).
 * `entry` "snapshot" gives the script a startup snapshot is built from (plugin/snapshot-main.ts).
 */
export async function bundlePlugin(
  outDir: string,
  name: string,
  version: string,
  entry: BundleEntry = "main",
): Promise<BundleResult> {
  const file = join(outDir, `${name}.js`);
  const result = await build({
    entryPoints: [ENTRIES[entry]],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: BUNDLE_NODE_TARGET,
    sourcemap: false,
    define: { __VOICEPLATFORM_VERSION__: JSON.stringify(version) },
    minifyWhitespace: true,
    legalComments: "linked",
    metafile: true,
    logLevel: "error",
    plugins: [pulumiProtocol()],
  });
  return { file, inputs: Object.keys(result.metafile.inputs).length };
}
