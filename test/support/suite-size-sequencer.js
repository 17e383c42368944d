const { readFileSync, statSync } = require('node:fs');
const path = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;

/**
 * Jest's order (README "Tests"): files that failed last time first, then the longest by the
 * durations jest remembers, then the files it has no duration for (a fresh checkout, as in CI) by
 * their size, biggest first, so that the long files start early and no worker idles at the end.
 * One change: a thin file that runs a suite kept in test/support (`import ... from
 * '../support/<name>-suite'`, the fuzz suite's two files) weighs as that suite too, instead of
 * running last for its three lines.
 */
class SuiteSizeSequencer extends TestSequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const untimed = new Set(sorted.filter((test) => test.duration == null));
    const weight = (file) => {
      let size = statSync(file).size;
      for (const [, suite] of readFileSync(file, 'utf8').matchAll(/from '(\.\.\/support\/[\w-]+-suite)'/g)) {
        size += statSync(path.resolve(path.dirname(file), `${suite}.ts`)).size;
      }
      return size;
    };
    const weights = new Map([...untimed].map((test) => [test, weight(test.path)]));
    return [...sorted.filter((test) => !untimed.has(test)), ...[...untimed].sort((a, b) => weights.get(b) - weights.get(a))];
  }
}

module.exports = SuiteSizeSequencer;
