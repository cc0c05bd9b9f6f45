/**
 * A preload (`node --require`) that makes the state backends' clients unresolvable, as in a
 * project that never installed them: require() fails with Node's MODULE_NOT_FOUND and import()
 * with ERR_MODULE_NOT_FOUND, each naming the package. For the sources, which the repository's
 * node_modules would otherwise resolve (test/unit/cli/backend-clients.test.ts).
 */
const Module = require("node:module");

const HIDDEN = String.raw`^(@aws-sdk/client-s3|@azure/storage-blob|postgres)(/|$)`;
const hidden = new RegExp(HIDDEN);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.test(request)) {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = "MODULE_NOT_FOUND";
    throw error;
  }
  return resolveFilename.call(this, request, ...rest);
};

const esmHooks = `export async function resolve(specifier, context, next) {
  if (new RegExp(${JSON.stringify(HIDDEN)}).test(specifier)) {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    error.code = "ERR_MODULE_NOT_FOUND";
    throw error;
  }
  return next(specifier, context);
}`;
Module.register(`data:text/javascript,${encodeURIComponent(esmHooks)}`);
