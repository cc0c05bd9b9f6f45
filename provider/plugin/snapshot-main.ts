/**
 * The single executable's entry when it carries a V8 startup snapshot (provider/release/
 * plugin-archive.ts): this file runs once, at build time, and the heap it leaves is what every
 * plugin process starts from. So the modules imported here (Pulumi's protocol messages, zod and
 * the resource descriptors, the settings schema, the package schema's text) are already loaded
 * when the process starts. gRPC is not: node:http2 cannot be in a snapshot (its native state is
 * not serializable), so the plugin itself (main.ts, which loads @grpc/grpc-js) starts in the
 * deserialized process. Nothing here may read the environment, the clock or the arguments: the
 * snapshot would keep the build machine's. And what Node.js itself noted of the build process
 * (its pid, its binary's path, its arguments; node sets them anew when the process starts) is
 * dropped, so that two builds give the same bytes and no path of the build machine is kept.
 */
import { startupSnapshot } from "node:v8";
import "@pulumi/pulumi/proto/engine_pb";
import "@pulumi/pulumi/proto/plugin_pb";
import "@pulumi/pulumi/proto/provider_pb";
import "@pulumi/pulumi/proto/status_pb";
import "google-protobuf/google/protobuf/any_pb";
import "google-protobuf/google/protobuf/empty_pb";
import "google-protobuf/google/protobuf/struct_pb";
import "../core/served-resource";
import "../resources";
import "./provider-config";
import { servedSchemaText } from "./schema";

servedSchemaText();

Object.defineProperty(process, "pid", { value: 0 });
process.execPath = "node";
process.argv.length = 0;

startupSnapshot.setDeserializeMainFunction(() => {
  require("./main");
});
