/**
 * What redaction costs per message (provider/platform/redaction.ts runs on every text the
 * platform sends back): `npm run build && node test/bench/redaction-cost.js [dist/provider]`.
 * A micro-benchmark, not a test: it prints the median CPU time per call of each workload over 5
 * rounds (CPU time, so other processes on the machine disturb it less), and fails on nothing.
 * It loads the build users run from the folder given, and uses only what every version of the
 * redaction has (rememberSecret, redactSecrets, redactedPrefix), so the same file measures the
 * build of an older checkout for a before/after figure. Plain JavaScript run by node: a
 * TypeScript loader (tsx) would rewrite the code it measures and change its cost.
 */
const { resolve } = require("node:path");

const built = resolve(process.argv[2] ?? "dist/provider");
const { rememberSecret, redactSecrets, redactedPrefix } = require(`${built}/platform/redaction`);
const { resetProcessState } = require(`${built}/settings/process-state`);

const API_KEY = "sk_live_bench.Key9-Q7xZ2v";
const SECRETS = [
  API_KEY,
  "Sip-Passw0rd:7/x",
  "crm_token.Bench-44",
  "https://crm.example.com/h/T0k",
];

/** A seeded generator, so every run and every checkout measures the same texts. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const plain =
  "Voice 'Support agent' was not found in organization org_12ab34 (request id req_8f3a9c2d1e).";

const json = JSON.stringify({
  error: {
    status: 400,
    code: "validation",
    message: 'name "Support agent \\u00e9" must be at most 64 characters; got 71',
    details: [
      { path: "gateways[0].ipv4", message: 'must be an IPv4 address, not "300.1.1.1"' },
      { path: "phoneNumbers[1]", message: "must be E.164 (+14155550100)" },
    ],
    docs: "https://docs.example.com/errors?code=validation&lang=en&ref=%2Fsip",
  },
});

/** Escapes a platform could quote a secret in, written out here for both versions alike. */
const encoders = [
  (text) => encodeURIComponent(text),
  (text) => encodeURIComponent(encodeURIComponent(text)),
  (text) => JSON.stringify(text).slice(1, -1),
  (text) => Array.from(text, (c) => `&#x${c.codePointAt(0).toString(16)};`).join(""),
  (text) => Array.from(text, (c) => `&#${c.codePointAt(0)};`).join(""),
  (text) => text.toUpperCase(),
  (text) =>
    text.replace(
      /[_.:/]/g,
      (c) => ({ _: "&lowbar;", ".": "&period;", ":": "&colon;", "/": "&sol;" })[c],
    ),
  (text) => Array.from(Buffer.from(text), (b) => `\\${b.toString(8).padStart(3, "0")}`).join(""),
  (text) => escape(text),
];

/** A text of about `size` characters quoting the secrets in every encoding, with words between. */
function echo(size, seed) {
  const next = random(seed);
  const words = ["refused", "value", "got", "field", "request", "invalid", "the", "for"];
  let text = "platform-echo: ";
  while (text.length < size) {
    const secret = SECRETS[Math.floor(next() * SECRETS.length)];
    const encode = encoders[Math.floor(next() * encoders.length)];
    text += `${words[Math.floor(next() * words.length)]} ${encode(secret)} `;
  }
  return text.slice(0, size);
}

function remember(count) {
  resetProcessState();
  for (const secret of SECRETS) rememberSecret(secret);
  const next = random(42);
  for (let k = SECRETS.length; k < count; k++) {
    rememberSecret(`pw-${Math.floor(next() * 1e12).toString(36)}-${k}`);
  }
}

const echoes = Array.from({ length: 50 }, (_, k) => echo(300, k + 1));
const long = echo(2048, 99);
const huge = echo(20_000, 7);

const workloads = [
  { name: "plain message, 90 chars", secrets: 4, run: () => redactSecrets(plain) },
  { name: "JSON error body, 400 chars", secrets: 4, run: () => redactSecrets(json) },
  {
    name: "echoes of secrets, 300 chars (50 texts)",
    secrets: 4,
    run: () => echoes.forEach((text) => redactSecrets(text)),
  },
  { name: "echo, 2 KB", secrets: 4, run: () => redactSecrets(long) },
  { name: "echo, 20 KB, cut at 2 KB", secrets: 4, run: () => redactedPrefix(huge, 2048) },
  { name: "plain message, 1,000 secrets", secrets: 1000, run: () => redactSecrets(plain) },
  { name: "JSON error body, 1,000 secrets", secrets: 1000, run: () => redactSecrets(json) },
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

for (const workload of workloads) {
  remember(workload.secrets);
  workload.run(); // warm: caches, the JIT
  const rounds = [];
  for (let round = 0; round < 5; round++) {
    const started = process.cpuUsage();
    let calls = 0;
    let spent = 0;
    while (spent < 300_000 || calls < 3) {
      workload.run();
      calls++;
      const used = process.cpuUsage(started);
      spent = used.user + used.system;
    }
    rounds.push(spent / calls);
  }
  console.log(
    `${workload.name.padEnd(42)} ${median(rounds).toFixed(0).padStart(9)} µs CPU per call`,
  );
}
