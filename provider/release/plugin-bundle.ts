/**
 * The plugin process as one JavaScript file: provider/plugin/main.ts bundled by esbuild with every
 * dependency inside, so nothing is resolved from node_modules at run time. No source map: nothing
 * reads one at run time, and a map would carry the whole source and this machine's paths. The
 * licenses of what is bundled go beside it (`<file>.LEGAL.txt`).
 */
import { dirname, join } from "node:path";
import { constants as http2Constants } from "node:http2";
import { build, type BuildOptions, type Plugin } from "esbuild";

/** The repository: this file runs from its sources, provider/release (never built into dist/). */
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

/**
 * For the startup snapshot's bundle: the built-in modules whose native state cannot be in a V8
 * snapshot (node:http2, node:http, node:https, node:tls: the snapshot build aborts on them) are
 * loaded on first use, so that the modules needing them (gRPC) can be loaded while the snapshot
 * is built. While it is built, nothing of them may be used but HTTP/2's header names (gRPC reads
 * them when loaded; they are the protocol's, the same in every Node.js); anything else fails the
 * build, naming what was used.
 */
function builtinsLoadedOnFirstUse(): Plugin {
  const headerNames = Object.fromEntries(
    Object.entries(http2Constants).filter(([key]) => key.startsWith("HTTP2_HEADER_")),
  );
  return {
    name: "builtins-loaded-on-first-use",
    setup(bundle) {
      bundle.onResolve({ filter: /^(node:)?(http2|http|https|tls)$/ }, (args) =>
        // The stand-in itself loads the real module.
        args.namespace === "builtin-on-first-use"
          ? { path: args.path, external: true }
          : { path: args.path.replace(/^node:/, ""), namespace: "builtin-on-first-use" },
      );
      bundle.onLoad({ filter: /.*/, namespace: "builtin-on-first-use" }, (args) => ({
        loader: "js",
        contents: `const { startupSnapshot } = require("node:v8");
const whileBuilding = ${JSON.stringify(args.path === "http2" ? { constants: headerNames } : {})};
let loaded;
const real = () => (loaded ??= require("node:${args.path}"));
module.exports = new Proxy({}, {
  get(_, key) {
    if (!startupSnapshot.isBuildingSnapshot()) return real()[key];
    if (key in whileBuilding) return whileBuilding[key];
    throw new Error("node:${args.path}." + String(key) + " was used while the startup snapshot was built");
  },
  has: (_, key) => key in real(),
  ownKeys: () => Reflect.ownKeys(real()),
  getOwnPropertyDescriptor: (_, key) => ({ ...Reflect.getOwnPropertyDescriptor(real(), key), configurable: true }),
});
`,
      }));
    },
  };
}

/** How every bundle of the plugin is built, whatever its entry. */
export const BUNDLE_SETTINGS = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: BUNDLE_NODE_TARGET,
  sourcemap: false,
  minifyWhitespace: true,
  // The package's errors are named after their classes (settings/errors.ts): without it esbuild
  // may rename a class (`_ConfigurationError`) and the error's `name` with it.
  keepNames: true,
} as const satisfies BuildOptions;

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
    ...BUNDLE_SETTINGS,
    entryPoints: [ENTRIES[entry]],
    outfile: file,
    define: { __VOICEPLATFORM_VERSION__: JSON.stringify(version) },
    legalComments: "linked",
    metafile: true,
    logLevel: "error",
    plugins: [pulumiProtocol(), ...(entry === "snapshot" ? [builtinsLoadedOnFirstUse()] : [])],
  });
  return { file, inputs: Object.keys(result.metafile.inputs).length };
}
