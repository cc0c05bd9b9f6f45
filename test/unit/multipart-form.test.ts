import busboy from "busboy";
import { coalesced, encodeMultipart, MultipartForm } from "../../provider/platform/multipart-form";
import { SampleUpload } from "../../provider/platform/sample-files";
import { writeSample } from "../support/builders";

async function* piecesOf(...sizes: number[]): AsyncGenerator<Uint8Array> {
  for (const [index, size] of sizes.entries()) yield new Uint8Array(size).fill(index + 1);
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer[]> {
  const all: Buffer[] = [];
  for await (const chunk of chunks) all.push(Buffer.from(chunk));
  return all;
}

/** Parses a body back with busboy, the parser the emulator uses. */
function parse(contentType: string, body: Buffer) {
  return new Promise<{ fields: Record<string, string>; files: [string, string, string, Buffer][] }>(
    (resolve, reject) => {
      const fields: Record<string, string> = {};
      const files: [string, string, string, Buffer][] = [];
      const parser = busboy({ headers: { "content-type": contentType } });
      parser.on("field", (name, value) => (fields[name] = value));
      parser.on("file", (name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () =>
          files.push([name, info.filename ?? "", info.mimeType, Buffer.concat(chunks)]),
        );
      });
      parser.on("close", () => resolve({ fields, files }));
      parser.on("error", reject);
      parser.end(body);
    },
  );
}

describe("multipart body", () => {
  it("joins small pieces into one write and passes 64 KiB chunks through as they are", async () => {
    const out = await collect(coalesced(piecesOf(10, 20, 65536, 30, 65536, 65536, 5)));
    expect(out.map((chunk) => chunk.length)).toEqual([30, 65536, 30, 65536, 65536, 5]);
    expect(out[0]!.subarray(0, 10).every((byte) => byte === 1)).toBe(true);
    expect(out[0]!.subarray(10).every((byte) => byte === 2)).toBe(true);
  });

  it("sends not another piece once stopped, and stops reading", async () => {
    const stop = new AbortController();
    let read = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 10; i++) {
        read++;
        yield new Uint8Array(65536);
      }
    }
    const sent: Uint8Array[] = [];
    const sending = (async () => {
      for await (const chunk of coalesced(counted(), stop.signal)) {
        sent.push(chunk);
        if (sent.length === 2) stop.abort(new Error("provider ended"));
      }
    })();
    await expect(sending).rejects.toThrow("provider ended");
    expect(sent).toHaveLength(2);
    // The piece being read when it stopped is dropped; none is read after it.
    expect(read).toBe(3);
  });

  it("writes fields and samples that parse back exactly, with the announced length", async () => {
    const audio = Buffer.alloc(200 * 1024);
    for (let i = 0; i < audio.length; i++) audio[i] = (i * 31) & 0xff;
    const sample = await SampleUpload.open(writeSample('take "1".wav', audio));
    const form = new MultipartForm();
    form.append("name", "Support agent");
    form.append("supportedLocales", '["en-US","fr-FR"]');
    form.append("files", sample);
    const { headers, body } = encodeMultipart(form);
    const chunks = await collect(body);
    const sent = Buffer.concat(chunks);
    expect(Number(headers["content-length"])).toBe(sent.length);
    // The small leading parts and the sample's tail are joined: a handful of writes in all.
    expect(chunks.length).toBeLessThanOrEqual(6);
    const parsed = await parse(headers["content-type"], sent);
    expect(parsed.fields).toEqual({
      name: "Support agent",
      supportedLocales: '["en-US","fr-FR"]',
    });
    expect(parsed.files).toHaveLength(1);
    const [field, filename, type, content] = parsed.files[0]!;
    expect([field, filename, type]).toEqual(["files", "take %221%22.wav", "audio/wav"]);
    expect(content.equals(audio)).toBe(true);
  });
});
