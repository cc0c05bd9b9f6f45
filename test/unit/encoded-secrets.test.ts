/**
 * Secrets a platform quotes in base64, as a hex dump, quoted-printable, CSS-escaped, with its
 * quotes doubled as SQL and CSV write them, as C#'s `\xH…` or as Python's `\N{NAME}`
 * (provider/platform/byte-dumps.ts, encoded-secrets.ts, escape-sequences.ts): generated secrets
 * echoed in each of the emulator's forms, alone and inside a longer body at every alignment, are
 * blanked, and the leak detector written apart (test/support/secret-leaks.ts) finds nothing in
 * what is left. The rest of the rule is test/unit/redaction.test.ts.
 */
import fc from "fast-check";
import { redactSecrets, rememberSecret } from "../../provider/platform/redaction";
import { resetProcessState } from "../../provider/settings/process-state";
import type { EchoTransform } from "../../provider/emulator/control-types";
import { echoAnswer } from "../../provider/emulator/echo-fault";
import { apiKeyText, secretText } from "../support/secret-arbitraries";
import { leaksOf } from "../support/secret-leaks";

jest.setTimeout(300_000);

beforeEach(() => resetProcessState());

const base64 = (text: string | Buffer) => Buffer.from(text).toString("base64");

/** The emulator's forms this file is about (provider/emulator/echo-fault.ts). */
const byteForms: EchoTransform[] = [
  "base64",
  "base64url",
  "base64-mime",
  "hex",
  "hex-spaced",
  "hex-upper-colon",
  "hex-escaped",
];
const escapeForms: EchoTransform[] = [
  "quoted-printable",
  "css",
  "sql-quotes",
  "csv-quotes",
  "dotnet-hex",
  "python-namereplace",
];

/** Letters written right against an echoed piece, as a sloppy platform may. */
const around = fc.oneof(
  fc.constant(""),
  fc.constantFrom(" ", "value=", "'", '"', ": "),
  fc.string({ unit: fc.constantFrom(..."abcdefXYZ019"), minLength: 1, maxLength: 3 }),
);

/**
 * A request body holding the secret after `shift` letters: the secret starts at every byte of a
 * group of 3 (base64) and of 2 (hex) as `shift` goes from 0 to 5.
 */
function bodyWith(secret: string, shift: number): string {
  return JSON.stringify({ note: "n".repeat(shift), password: secret, after: "the rest" });
}

describe.each([...byteForms, ...escapeForms].map((form) => [form]))("echoed %s", (form) => {
  it("shows no secret, alone, in the Authorization header or inside the body at every alignment", () => {
    let cases = 0;
    fc.assert(
      fc.property(
        secretText(4, 40),
        fc.constantFrom("", "Bearer ", "Basic user:"),
        around,
        around,
        fc.constantFrom("json" as const, "text" as const),
        (secret, scheme, before, after, as) => {
          for (let shift = 0; shift < 6; shift++) {
            resetProcessState();
            rememberSecret(secret);
            const { text } = echoAnswer(
              [{ transforms: [form], before, after }],
              as,
              bodyWith(secret, shift),
              `${scheme}${secret}`,
            );
            const shown = redactSecrets(text);
            expect({ form, text, leaks: leaksOf(shown, { secret }) }).toEqual({
              form,
              text,
              leaks: [],
            });
            expect(shown).not.toBe(text);
            cases++;
          }
        },
      ),
      { numRuns: 25 },
    );
    expect(cases).toBe(150);
  });
});

describe("a secret's bytes in base64 or hex, wherever they sit", () => {
  it("blanks an echoed `Authorization: Basic <base64(user:key)>` whole", () => {
    const key = "sk_live_hostile.key9";
    rememberSecret(key);
    for (const user of ["", "a", "ab", "admin", "org_12ab34"]) {
      expect(redactSecrets(`got Authorization: Basic ${base64(`${user}:${key}`)}.`)).toBe(
        "got Authorization: Basic [redacted].",
      );
    }
  });

  const WHOLE = /^debug: \[redacted\] \(end\)$/;

  /** Bytes around the secret that are not text: a binary body holds it (a multipart upload). */
  const binary = fc.uint8Array({ minLength: 0, maxLength: 40 }).map((bytes) => Buffer.from(bytes));

  /**
   * Dumps, and what is left of one that holds the key: a base64 token is blanked whole; in a hex
   * dump, the key's bytes (the rest of a dump of bytes that are not text says nothing).
   */
  const dumps: [string, (bytes: Buffer) => string, RegExp][] = [
    ["base64", (bytes) => bytes.toString("base64"), WHOLE],
    ["URL-safe base64 without padding", (bytes) => bytes.toString("base64url"), WHOLE],
    [
      "base64 in lines of 76 (MIME)",
      (bytes) => (bytes.toString("base64").match(/.{1,76}/g) ?? []).join("\r\n"),
      WHOLE,
    ],
    [
      "base64 in lines of 64 (PEM)",
      (bytes) => (bytes.toString("base64").match(/.{1,64}/g) ?? []).join("\n"),
      WHOLE,
    ],
    ["hex", (bytes) => bytes.toString("hex"), /^debug: [0-9a-f]*\[redacted\][0-9a-f]* \(end\)$/],
    [
      "upper-case hex with `-` (.NET)",
      (bytes) => hexPairs(bytes).join("-").toUpperCase(),
      /^debug: [0-9A-F-]*\[redacted\][0-9A-F-]* \(end\)$/,
    ],
    [
      "hex with `:`",
      (bytes) => hexPairs(bytes).join(":"),
      /^debug: [0-9a-f:]*\[redacted\][0-9a-f:]* \(end\)$/,
    ],
    [
      "hex with spaces",
      (bytes) => hexPairs(bytes).join(" "),
      /^debug: [0-9a-f ]*\[redacted\][0-9a-f ]* \(end\)$/,
    ],
  ];

  it.each(dumps)(
    "finds a key among bytes that are not text, in %s, at every alignment",
    (_label, dump, left) => {
      fc.assert(
        fc.property(apiKeyText(4, 40), binary, binary, (key, head, tail) => {
          resetProcessState();
          rememberSecret(key);
          const body = Buffer.concat([head, Buffer.from(`Bearer ${key}`), tail]);
          const text = `debug: ${dump(body)} (end)`;
          const shown = redactSecrets(text);
          expect(shown).toMatch(left);
          expect(leaksOf(shown, { key })).toEqual([]);
        }),
        { numRuns: 150 },
      );
    },
  );

  it.each(dumps)("finds a key in a body too long to read (20 KB), in %s", (_label, dump, left) => {
    fc.assert(
      fc.property(apiKeyText(4, 40), fc.nat(20_000), (key, at) => {
        resetProcessState();
        rememberSecret(key);
        const filler = "x".repeat(20_000);
        const body = JSON.stringify({ a: filler.slice(0, at), apiKey: key, b: filler.slice(at) });
        const text = `debug: ${dump(Buffer.from(body))} (end)`;
        expect(redactSecrets(text)).toMatch(left);
      }),
      { numRuns: 20 },
    );
  });

  it("reads a short token in every form it holds the secret in: case changed, escaped, nested", () => {
    const secret = 'pW8"chÄris\\é Σ/+%_.:';
    rememberSecret(secret);
    for (const held of [
      secret.toUpperCase(),
      encodeURIComponent(secret),
      JSON.stringify({ p: secret }),
      base64(secret),
      `&#${Array.from(secret, (c) => c.codePointAt(0)).join(";&#")};`,
    ]) {
      const text = `token ${base64(held)} and ${Buffer.from(held).toString("hex")}.`;
      const shown = redactSecrets(text);
      expect(shown).toBe("token [redacted] and [redacted].");
      expect(leaksOf(shown, { secret })).toEqual([]);
    }
  });

  it.each<[string, (bytes: Buffer) => string]>([
    [
      "C's array, `0x…, `",
      (bytes) =>
        hexPairs(bytes)
          .map((pair) => `0x${pair}`)
          .join(", "),
    ],
    ["xxd's groups of 2 bytes", (bytes) => bytes.toString("hex").replace(/.{4}(?!$)/g, "$& ")],
    [
      "hexdump -C's 8 and 8",
      (bytes) =>
        hexPairs(bytes)
          .join(" ")
          .replace(/((?:[0-9a-f]{2} ){7}[0-9a-f]{2}) /g, "$1  "),
    ],
    ["xxd -p's lines of 60", (bytes) => bytes.toString("hex").replace(/.{60}(?!$)/g, "$&\n")],
    [
      "upper case, lines of 16 bytes",
      (bytes) =>
        hexPairs(bytes)
          .join(" ")
          .toUpperCase()
          .replace(/(?:.. ){16}/g, "$&\n"),
    ],
  ])("reads a hex dump written as %s", (_label, dump) => {
    const secret = "Sip_Pass.w0rd:9/x";
    rememberSecret(secret);
    // Upper-cased and in a JSON body: not the secret's bytes as sent, found only by reading.
    const body = Buffer.from(JSON.stringify({ registerPassword: secret.toUpperCase(), n: 1 }));
    const shown = redactSecrets(`debug: ${dump(body)} (end)`);
    expect(shown).toBe("debug: [redacted] (end)");
    expect(leaksOf(shown, { secret })).toEqual([]);
  });

  it("reads a word or number that merely could be base64 or hex as it is", () => {
    rememberSecret("Sip_Pass.w0rd:9/x");
    const text =
      "voice 65a1f0c2e4b0a1b2c3d4e5f6 refused: 14155550100 is not E.164, deadbeef cafe, value=41";
    expect(redactSecrets(text)).toBe(text);
  });
});

describe("escapes of other formats", () => {
  const SECRET = "İı-Key9é'\"中😀";

  it.each([
    ["quoted-printable, lines cut", "x=C4=B0=C4=B1-Key9=C3=A9'\"=E4=B8=AD=\r\n=F0=9F=98=80y"],
    ["quoted-printable in lower case", "x=c4=b0=c4=b1-key9=c3=a9'\"=e4=b8=ad=f0=9f=98=80y"],
    ["CSS escapes", "x\\130\\131-Key9\\E9 \\'\\\"\\4E2D\\1F600 y"],
    [
      "CSS escapes in lower case, with a line continued",
      "x\\130\\131-key9\\e9\\\n\\'\\\"\\4e2d\\1f600",
    ],
    ["SQL's doubled quotes", "'x İı-Key9é''\"中😀'"],
    ["CSV's doubled quotes", '"x İı-Key9é\'""中😀"'],
    ["C#'s \\xH…", "x\\x130\\x131-Key9\\xe9'\\\"\\x4E2D\\xD83D\\xDE00y"],
    ["C#'s \\xH… with 4 digits", "x\\x0130\\x0131-Key9\\x00E9'\\\"\\x4e2d\\xd83d\\xde00"],
    [
      "Python's \\N{…}",
      "x\\N{LATIN CAPITAL LETTER I WITH DOT ABOVE}\\N{LATIN SMALL LETTER DOTLESS I}-Key9\\N{LATIN SMALL LETTER E WITH ACUTE}'\"\\N{CJK UNIFIED IDEOGRAPH-4E2D}\\N{GRINNING FACE}",
    ],
    [
      "Python's \\N{…} in lower case, by an alias",
      "\\n{latin capital letter i with dot above}\\n{latin small letter dotless i}-key9\\n{latin small letter e with acute}'\"\\n{cjk unified ideograph-4e2d}\\n{grinning face}",
    ],
  ])("blanks a secret written as %s", (_label, echoed) => {
    rememberSecret(SECRET);
    const shown = redactSecrets(`refused: ${echoed}.`);
    expect(shown).toMatch(/^refused: .*\[redacted\].*\.$/);
    expect(leaksOf(shown, { SECRET })).toEqual([]);
  });

  it("reads Python's \\N{…} by an alias: NBSP, a control's name, a corrected name", () => {
    rememberSecret("a\u00a0b\u0007c\u01a2d");
    expect(redactSecrets("got a\\N{NBSP}b\\N{BEL}c\\N{LATIN CAPITAL LETTER GHA}d.")).toBe(
      "got [redacted].",
    );
    expect(
      redactSecrets("got a\\N{NO-BREAK SPACE}b\\N{ALERT}c\\N{LATIN CAPITAL LETTER OI}d."),
    ).toBe("got [redacted].");
  });

  it("reads `=XX` as quoted-printable only where RFC 2045 writes it: not `value=41`", () => {
    rememberSecret("xA1B2C3");
    expect(redactSecrets("value=78A1B2C3")).toBe("value=78A1B2C3");
  });
});

function hexPairs(bytes: Buffer): string[] {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0"));
}
