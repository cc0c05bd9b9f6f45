import busboy from "busboy";
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { LoggedFile, LoggedMultipart } from "./control-types";
import { ErrorAnswer } from "./errors";

export interface MultipartForm {
  fields: ReadonlyMap<string, string>;
  files: readonly LoggedFile[];
}

export const FILE_FIELD = "files";

const LIMITS = { fieldSize: 64 * 1024, fields: 100, files: 1000, parts: 1100 };

/**
 * Streams a multipart body: file contents are hashed chunk by chunk and never held in memory.
 * After the first problem the rest of the body is still drained, so the client gets a clean
 * 400 instead of a reset connection. `record` is filled as parts arrive, for the request log.
 */
export function readMultipartForm(
  req: IncomingMessage,
  record: LoggedMultipart,
): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: LIMITS });
    } catch (error) {
      reject(malformed(error));
      return;
    }
    const fields = new Map<string, string>();
    const files: LoggedFile[] = [];
    let problem: ErrorAnswer | undefined;
    const fail = (error: ErrorAnswer) => {
      problem ??= error;
    };

    parser.on("field", (name, value, info) => {
      if (!(name in record.fields)) record.fields[name] = value;
      if (info.valueTruncated) {
        fail(
          new ErrorAnswer(
            400,
            "field_too_large",
            `Form field "${name}" exceeds ${LIMITS.fieldSize} bytes.`,
            name,
          ),
        );
      } else if (name === FILE_FIELD) {
        fail(
          new ErrorAnswer(
            400,
            "invalid_field",
            `Form field "${FILE_FIELD}" must be sent as file parts (with a filename), not as text.`,
            FILE_FIELD,
          ),
        );
      } else if (fields.has(name)) {
        fail(
          new ErrorAnswer(
            400,
            "duplicate_field",
            `Form field "${name}" was sent more than once; send it once` +
              (name === "supportedLocales" ? ", holding a JSON array of all locales." : "."),
            name,
          ),
        );
      } else {
        fields.set(name, value);
      }
    });

    parser.on("file", (name, stream, info) => {
      if (name !== FILE_FIELD) {
        fail(
          new ErrorAnswer(
            400,
            "unexpected_file_field",
            `File part "${name}" is not accepted; audio samples go in form field "${FILE_FIELD}".`,
            name,
          ),
        );
      }
      if (problem !== undefined) {
        stream.resume();
        return;
      }
      const hash = createHash("sha256");
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
      });
      stream.on("end", () => {
        const file = {
          field: name,
          filename: info.filename ?? "",
          size,
          sha256: hash.digest("hex"),
        };
        files.push(file);
        record.files.push(file);
      });
      // busboy reports a broken part on the parser as well; that is where it is handled.
      stream.on("error", () => undefined);
    });

    for (const limit of ["fieldsLimit", "filesLimit", "partsLimit"] as const) {
      parser.on(limit, () =>
        fail(
          new ErrorAnswer(
            400,
            "too_many_parts",
            `The form exceeds ${LIMITS.fields} fields or ${LIMITS.files} files.`,
          ),
        ),
      );
    }

    parser.on("error", (error: unknown) => {
      req.unpipe(parser);
      req.resume();
      reject(malformed(error));
    });
    parser.on("close", () =>
      problem === undefined ? resolve({ fields, files }) : reject(problem),
    );
    req.on("close", () => {
      if (!req.complete) reject(new Error("client closed the connection during the upload"));
    });
    req.pipe(parser);
  });
}

function malformed(error: unknown): ErrorAnswer {
  const reason = error instanceof Error ? error.message : String(error);
  return new ErrorAnswer(
    400,
    "malformed_multipart",
    `The multipart body cannot be parsed: ${reason}`,
  );
}
