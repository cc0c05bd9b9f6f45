/**
 * The single executable's entry when it carries a V8 startup snapshot (provider/release/
 * plugin-archive.ts): this file runs once, at build time, and the heap it leaves is what every
 * plugin process starts from. So the gRPC service and all it loads (@grpc/grpc-js, Pulumi's
 * protocol messages, zod, the resource descriptors, the settings schema) and GetSchema's text
 * are ready when the process starts; main.ts, run in the started process, only binds the
 * server. node:http2, node:http and node:tls cannot be in a snapshot (the build aborts on their
 * native state): the snapshot's bundle loads them on first use (provider/release/
 * plugin-bundle.ts), when the server is bound.
 *
 * Nothing here may read the environment, the clock or the arguments: the snapshot would keep the
 * build machine's. And what Node.js itself noted of the build process (its pid, its binary's path,
 * its arguments; node sets them anew when the process starts) is dropped, so that two builds give
 * the same bytes and no path of the build machine is kept.
 */
import { startupSnapshot } from "node:v8";
import "./grpc-server";
import { servedSchemaText } from "../schema/package-schema";

servedSchemaText();

Object.defineProperty(process, "pid", { value: 0 });
process.execPath = "node";
process.argv.length = 0;

startupSnapshot.setDeserializeMainFunction(() => {
  require("./main");
});
