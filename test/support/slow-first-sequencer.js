/**
 * jest's order of test files, with one change for files it has no time for yet (a fresh clone,
 * a new file): those whose first comment says `@slow` start before the others, so that two
 * workers do not end a run on the longest files, one of them idle. jest otherwise orders unknown
 * files by size, which puts a three-line file that calls a long suite (backend-s3.test.ts) last.
 * Failed files still come first and files jest has timed follow, longest first, as jest does.
 * Plain JavaScript: jest loads a sequencer without a transform.
 */
const { readFileSync } = require("node:fs");
const Sequencer = require("@jest/test-sequencer").default;

/** Whether the file's first block comment has a line starting with `@slow`. */
function saysSlow(path) {
  const text = readFileSync(path, "utf8");
  const comment = /\/\*\*([\s\S]*?)\*\//.exec(text);
  return comment !== null && /^\s*\*\s*@slow\b/m.test(comment[1]);
}

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const failed = sorted.filter((test) => this.hasFailed(test));
    const slowUntimed = sorted.filter(
      (test) => !this.hasFailed(test) && test.duration == null && saysSlow(test.path),
    );
    const rest = sorted.filter((test) => !failed.includes(test) && !slowUntimed.includes(test));
    return [...failed, ...slowUntimed, ...rest];
  }
}

module.exports = SlowFirstSequencer;
module.exports.saysSlow = saysSlow;
