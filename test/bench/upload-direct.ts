/**
 * Child process of the upload-memory benchmark: a plain undici upload, `FormData` + `openAsBlob`,
 * of the files it is told to send, to compare against the provider. Talks to its parent over IPC:
 * `{ kind: "ready" }` after a warm-up upload, then on `{ kind: "go" }` it uploads and answers
 * `{ kind: "done" }` or `{ kind: "failed", message }`.
 */
import { DirectClient, directCloneForm } from "./in-process";

interface Job {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly warmUp: string;
  readonly files: readonly string[];
}

const job = JSON.parse(process.argv[2] ?? "{}") as Job;
const send = (message: object) => process.send?.(message);
const inputs = { name: "Upload benchmark", supportedLocales: ["en-US"] };
const direct = new DirectClient({ apiKey: job.apiKey });
const url = `${job.baseUrl}/voices/voice-clone`;

async function upload(files: readonly string[]): Promise<void> {
  const form = await directCloneForm(
    { ...inputs, stability: 0.5, similarityBoost: 0.75, speed: 1 },
    files,
  );
  await direct.send("POST", url, form);
}

async function main(): Promise<void> {
  await upload([job.warmUp]);
  process.on("message", (message: { kind?: string }) => {
    if (message.kind !== "go") return;
    upload(job.files).then(
      () => send({ kind: "done" }),
      (error: unknown) => send({ kind: "failed", message: String(error) }),
    );
  });
  process.once("disconnect", () => process.exit(0));
  send({ kind: "ready" });
}

main().catch((error: unknown) => {
  send({ kind: "failed", message: String(error) });
  process.exitCode = 1;
});
