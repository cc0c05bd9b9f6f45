import type { FileLike, FormDataEntryValue, FormDataLike } from "form-data-encoder";

/**
 * The parts of a multipart body, in order, for form-data-encoder to write. Unlike a WHATWG
 * FormData it keeps a file part as it is given, so a sample reads from disk (and hashes) only
 * while the body is sent, with no web stream in between.
 */
export class MultipartForm implements FormDataLike {
  private readonly parts: [string, FormDataEntryValue][] = [];

  append(name: string, value: string | FileLike): void {
    this.parts.push([name, value]);
  }

  getAll(name: string): FormDataEntryValue[] {
    return this.parts.filter(([partName]) => partName === name).map(([, value]) => value);
  }

  entries(): IterableIterator<[string, FormDataEntryValue]> {
    return this.parts[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, FormDataEntryValue]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "FormData";
  }
}
