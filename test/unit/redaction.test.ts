/**
 * The one rule for secrets in messages (provider/platform/redaction.ts), as a pure function: a
 * secret of 4 characters or more is blanked in every form an echo can hold it in, the result is
 * withheld when a secret still shows, and shorter secrets are left to the structural rule
 * (test/provider/call-failures.test.ts). The leak detector (test/support/secret-leaks.ts) is
 * written apart from the redaction, and looks at every normalized view of the result.
 */
import fc from "fast-check";
import { ApiError } from "../../provider/platform/errors";
import { redactSecrets, rememberSecret } from "../../provider/platform/redaction";
import { resetProcessState } from "../../provider/settings/process-state";
import { echoAnswer } from "../../provider/emulator/echo-fault";
import type { EchoForm } from "../../provider/emulator/control-types";
import { echoForms, echoTransforms, secretText } from "../support/secret-arbitraries";
import { leaksOf } from "../support/secret-leaks";

jest.setTimeout(120_000);

beforeEach(() => resetProcessState());

/** Property runs: the process tier runs thousands more through both front ends. */
const RUNS = 1000;
/** Secrets this long or longer are searched for; shorter ones are withheld by structure. */
const FINDABLE = 4;

const SECRET = 'pW8"chÄrs\\é Σ/+%';

describe("a remembered secret of 4 characters or more", () => {
  it.each(echoTransforms.map((transform) => [transform]))(
    "is blanked in an echo written %s",
    (transform) => {
      rememberSecret(SECRET);
      const form: EchoForm = { transforms: [transform], before: "x", after: "Q" };
      const { text } = echoAnswer([form], "json", JSON.stringify({ pw: SECRET }), "");
      const redacted = redactSecrets(text);
      expect(leaksOf(redacted, { SECRET })).toEqual([]);
      expect(redacted).toContain("[redacted]");
    },
  );

  it.each([
    ["percent-encoded twice", encodeURIComponent(encodeURIComponent(SECRET))],
    ["a JSON text percent-encoded", encodeURIComponent(JSON.stringify({ p: SECRET }))],
    [
      "escaped as \\u{…}",
      Array.from(SECRET, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join(""),
    ],
    ["escaped as decimal references", Array.from(SECRET, (c) => `&#${c.codePointAt(0)};`).join("")],
    ["in mixed case with letters around", `ab${SECRET.toUpperCase()}cd`],
  ])("is blanked %s", (_label, echo) => {
    rememberSecret(SECRET);
    const redacted = redactSecrets(`refused: ${echo}.`);
    expect(redacted).toMatch(/^refused: .*\[redacted\].*\.$/);
    expect(leaksOf(redacted, { SECRET })).toEqual([]);
  });

  it("of a URL: the URL, its path with query, and its path, segments and values of 8+ characters", () => {
    rememberSecret("https://crm.example.com/hooks/T0kEn-seg?key=Zz9q8chr&n=1#frag");
    expect(
      redactSecrets(
        "got /hooks/T0kEn-seg?key=Zz9q8chr&n=1, path /hooks/t0ken-seg, segment t0ken-SEG, value zz9q8CHR; hooks, key and host crm.example.com stay",
      ),
    ).toBe(
      "got [redacted], path [redacted], segment [redacted], value [redacted]; hooks, key and host crm.example.com stay",
    );
  });

  it("makes the whole text withheld when a secret still shows after blanking", () => {
    rememberSecret("dact");
    // "[redacted]" itself holds the secret.
    expect(redactSecrets("the key dact was refused")).toBe(
      "[withheld: this text held a secret in a form that could not be blanked]",
    );
    rememberSecret("withheld");
    expect(redactSecrets("the key dact was refused")).toBe("");
  });

  it("is never cut in two where a long answer is truncated", () => {
    fc.assert(
      fc.property(secretText(FINDABLE, 40), fc.nat(60), (secret, shift) => {
        resetProcessState();
        rememberSecret(secret);
        const encoded = encodeURIComponent(encodeURIComponent(secret));
        const before = "x".repeat(2048 - Math.min(shift, encoded.length));
        const error = new ApiError({
          operation: "create SIP carrier",
          method: "POST",
          url: "http://127.0.0.1/organization/sip",
          status: 400,
          body: `${before}${encoded}${"y".repeat(3000)}`,
        });
        expect(error.body!.length).toBeLessThan(2100);
        expect(leaksOf(error.body!, { secret })).toEqual([]);
        // Not one character of it beyond the x's: no part of the secret is shown either.
        expect(error.body).toMatch(/^x*(\[redacted\])?… \(truncated\)$|^\[withheld/);
      }),
      { numRuns: 300 },
    );
  });

  it("property: never shows in any view of an echo, whatever the secret and the echo", () => {
    let redactions = 0;
    fc.assert(
      fc.property(
        secretText(FINDABLE, 40),
        echoForms,
        fc.constantFrom("json" as const, "text" as const),
        (secret, forms, as) => {
          resetProcessState();
          rememberSecret(secret);
          const { text } = echoAnswer(forms, as, JSON.stringify({ value: secret }), "");
          const redacted = redactSecrets(text);
          if (redacted !== text) redactions++;
          expect(leaksOf(redacted, { secret })).toEqual([]);
          const error = new ApiError({
            operation: "create SIP carrier",
            method: "POST",
            url: "http://127.0.0.1/organization/sip",
            status: 400,
            body: text,
          });
          expect(
            leaksOf([error.message, error.body, error.apiMessage].join("\n"), { secret }),
          ).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
    // Not vacuous: every echo held the secret, so every text was changed.
    expect(redactions).toBe(RUNS);
  });
});

describe("a secret under 4 characters", () => {
  it("is not searched for: blanking it would garble every text and still prove nothing", () => {
    rememberSecret("ab");
    rememberSecret("123");
    expect(redactSecrets("about 123 tabs")).toBe("about 123 tabs");
  });
});
