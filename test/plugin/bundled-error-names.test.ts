/**
 * The package's errors are named after their classes (settings/errors.ts sets `name` from
 * `new.target`), and the plugin runs as an esbuild bundle, which renames a class when it must
 * (`class _ConfigurationError` for one that names itself). Bundled with the plugin's own settings
 * (BUNDLE_SETTINGS, which both the npm bin's bundle and the single executable's are built with),
 * every error class of every errors room keeps its name, and so does every error it makes.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { BUNDLE_SETTINGS } from "../../provider/release/plugin-bundle";

const REPO = join(__dirname, "..", "..");
const ERROR_ROOMS = ["settings", "platform", "core", "cli"].map(
  (floor) => `./provider/${floor}/errors`,
);

type ErrorClass = (new (...args: never[]) => Error) & { name: string };

let bundled: Record<string, unknown>;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "bundled-errors-"));
  const outfile = join(scratch, "errors.js");
  await build({
    ...BUNDLE_SETTINGS,
    stdin: {
      contents: ERROR_ROOMS.map((room) => `export * from ${JSON.stringify(room)};`).join("\n"),
      resolveDir: REPO,
      loader: "ts",
    },
    outfile,
    logLevel: "error",
  });
  bundled = require(outfile) as Record<string, unknown>;
}, 60_000);

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

const details = { operation: "create voice", method: "POST", url: "https://api.example/voices" };

/** What a class is made with, where not a message alone (an ApiError: its request's facts). */
const MADE_WITH: Record<string, unknown[]> = {
  ApiConnectionError: [details, "ECONNREFUSED"],
  UnsafePathError: ["update voice", "id", "../x", "is not one path segment"],
  TimeoutError: [60_000],
  IncompleteCreateError: ["voice-1", {}, new Error("the follow-up failed")],
  PulumiCliError: [["stack", "export"], "error: no stack named 'dev' found", "exit code 6"],
};

/** An error of the class, made as the provider makes one. */
function made(name: string, ErrorClass: ErrorClass): Error {
  if (name === "ConfigurationError") {
    const factory = ErrorClass as unknown as { missing(s: object, why: string): Error };
    return factory.missing(
      { setting: "apiKey", key: "voiceplatform:apiKey", env: "VOICEPLATFORM_API_KEY" },
      "a create",
    );
  }
  const ApiError = bundled.ApiError as ErrorClass;
  const isApiError = ErrorClass === ApiError || ErrorClass.prototype instanceof ApiError;
  const args = MADE_WITH[name] ?? (isApiError ? [details] : ["a message"]);
  return new (ErrorClass as unknown as new (...args: unknown[]) => Error)(...args);
}

test("every error class of the bundle keeps its name, and so does every error it makes", () => {
  const classes = Object.entries(bundled).filter(
    (entry): entry is [string, ErrorClass] =>
      typeof entry[1] === "function" &&
      (entry[1] as { prototype?: unknown }).prototype instanceof Error,
  );
  for (const [exported, ErrorClass] of classes) {
    const error = made(exported, ErrorClass);
    expect({ exported, class: ErrorClass.name, error: error.name }).toEqual({
      exported,
      class: exported,
      error: exported,
    });
    expect(error).toBeInstanceOf(bundled.VoicePlatformError as ErrorClass);
  }
  // Every room was bundled, ConfigurationError (renamed without keepNames) among them.
  expect(classes.map(([exported]) => exported)).toEqual(
    expect.arrayContaining([
      "VoicePlatformError",
      "ConfigurationError",
      "ApiTimeoutError",
      "SampleChangedError",
      "IncompleteCreateError",
      "StackCommandError",
      "PulumiCliError",
      "LockedRefusal",
    ]),
  );
});
