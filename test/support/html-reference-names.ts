/**
 * Every named character reference of HTML5, for the secrets tests: read out of the `entities`
 * library's decoder by walking its names letter by letter (the library has no list of them), and
 * checked against the WHATWG table's size and against a second library (html-entities) in
 * test/unit/html-references.test.ts.
 */
import { DecodingMode, EntityDecoder, htmlDecodeTree } from "entities/decode";

export interface NamedReference {
  /** As written after the `&`, with its `;` when it has one (`lowbar;`, `amp;`, `amp`). */
  readonly name: string;
  readonly value: string;
}

const NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

let names: NamedReference[] | undefined;

/** The 2,231 names (106 of them legacy names without `;`), in the order walked. */
export function allNamedReferences(): NamedReference[] {
  names ??= walkNames();
  return names;
}

function walkNames(): NamedReference[] {
  let emitted: number[] = [];
  const decoder = new EntityDecoder(htmlDecodeTree, (codePoint) => emitted.push(codePoint));
  const read = (reference: string) => {
    emitted = [];
    decoder.startEntity(DecodingMode.Legacy);
    const written = decoder.write(reference, 1);
    const viable = written < 0;
    const length = viable ? decoder.end() : written;
    return { viable, whole: length === reference.length, value: String.fromCodePoint(...emitted) };
  };
  const found: NamedReference[] = [];
  const walk = (prefix: string) => {
    for (const char of NAME_CHARACTERS) {
      const name = prefix + char;
      const bare = read(`&${name}`);
      if (!bare.viable) continue;
      if (bare.whole) found.push({ name, value: bare.value });
      const closed = read(`&${name};`);
      if (closed.whole) found.push({ name: `${name};`, value: closed.value });
      walk(name);
    }
  };
  walk("");
  return found;
}
