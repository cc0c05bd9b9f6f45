/**
 * pulumi-protocol.ts for the release bundle: the same exports as static requires, which esbuild
 * follows into one file. The bundler resolves `@grpc/grpc-js` and `google-protobuf` from
 * `@pulumi/pulumi`'s folder for every importer, so the bundle holds the one copy its generated
 * messages use.
 */
import type * as Protocol from "./pulumi-protocol";

export const grpc: typeof Protocol.grpc = require("@grpc/grpc-js");
export const engineGrpc: typeof Protocol.engineGrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
export const enginePb: typeof Protocol.enginePb = require("@pulumi/pulumi/proto/engine_pb");
export const providerGrpc: typeof Protocol.providerGrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
export const providerPb: typeof Protocol.providerPb = require("@pulumi/pulumi/proto/provider_pb");
export const pluginPb: typeof Protocol.pluginPb = require("@pulumi/pulumi/proto/plugin_pb");
export const statusPb: typeof Protocol.statusPb = require("@pulumi/pulumi/proto/status_pb");
export const anyPb: typeof Protocol.anyPb = require("google-protobuf/google/protobuf/any_pb");
export const emptyPb: typeof Protocol.emptyPb = require("google-protobuf/google/protobuf/empty_pb");
export const structPb: typeof Protocol.structPb = require("google-protobuf/google/protobuf/struct_pb");
