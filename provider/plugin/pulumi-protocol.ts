/**
 * gRPC and Pulumi's generated protocol messages, loaded through `@pulumi/pulumi` so their copies
 * are the ones its generated messages were built with (another copy of `@grpc/grpc-js` or
 * `google-protobuf` fails with "Error deserializing request"). The release bundle
 * (provider/release/plugin-bundle.ts) swaps this file for pulumi-protocol.bundled.ts, whose
 * static requires esbuild can follow.
 */
import { createRequire } from "node:module";
import type * as Grpc from "@grpc/grpc-js";
import type * as EngineGrpcPb from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as EnginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as PluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb";
import type * as AnyPb from "google-protobuf/google/protobuf/any_pb";
import type * as EmptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";

const sdkRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
export const grpc: typeof Grpc = sdkRequire("@grpc/grpc-js");
export const engineGrpc: typeof EngineGrpcPb = sdkRequire("./proto/engine_grpc_pb");
export const enginePb: typeof EnginePb = sdkRequire("./proto/engine_pb");
export const providerGrpc: typeof ProviderGrpcPb = sdkRequire("./proto/provider_grpc_pb");
export const providerPb: typeof ProviderPb = sdkRequire("./proto/provider_pb");
export const pluginPb: typeof PluginPb = sdkRequire("./proto/plugin_pb");
export const statusPb: typeof StatusPb = sdkRequire("./proto/status_pb");
export const anyPb: typeof AnyPb = sdkRequire("google-protobuf/google/protobuf/any_pb");
export const emptyPb: typeof EmptyPb = sdkRequire("google-protobuf/google/protobuf/empty_pb");
export const structPb: typeof StructPb = sdkRequire("google-protobuf/google/protobuf/struct_pb");
