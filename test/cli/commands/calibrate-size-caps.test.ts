import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../helpers/cli.js';
import { temporaryFolder } from '../../helpers/temporary-folder.js';

const TRILLION = '1000000000000';

// Each size a user can type into `calibrate`, at 10^12, with the message the schema (or the
// flag's parser) gives; none of them may allocate first (a 10^12-row pool is terabytes).
const CASES: [string, string[], RegExp][] = [
  [
    '--calibration-paths',
    ['--groups', '100,100', '--calibration-paths', TRILLION],
    /--calibration-paths: expected an integer in \[100, 1000000\], found 1000000000000/,
  ],
  ['--budget', ['--groups', '100,100', '--budget', TRILLION], /--budget: expected an integer in \[1, 50000000\]/],
  [
    '--minimum-per-group',
    ['--groups', '100,100', '--minimum-per-group', TRILLION],
    /--minimum-per-group: expected an integer in \[1, 50000000\]/,
  ],
  [
    '--groups',
    ['--groups', `${TRILLION},${TRILLION}`],
    /--groups: expected two group sizes A,B \(.*at most 50000000 rows in all\), found "1000000000000,1000000000000"/,
  ],
  // A large --groups within the cap (20 million rows) with another flag out of range: that flag is named
  // before the pool is made (it was allocated first, gigabytes for 10^9 rows).
  [
    '--groups with a bad --alpha',
    ['--groups', '10000000,10000000', '--alpha', '2'],
    /--alpha: expected a number in \(0, 1\)/,
  ],
  [
    '--synthetic size',
    ['--synthetic', `{"size":${TRILLION}}`],
    /--synthetic: size: expected an integer in \[2, 50000000\]/,
  ],
  ['--threads', ['--groups', '100,100', '--threads', TRILLION], /--threads: expected an integer/],
  [
    '--budget 1e300',
    ['--groups', '100,100', '--budget', '1e300'],
    /--budget: expected an integer in \[1, 50000000\], found 1e\+300$/m,
  ],
];

describe('fairaudit calibrate with a size flag at 10^12', () => {
  for (const [flag, args, message] of CASES) {
    it(`${flag}: exit 2 naming the flag, within 1 s, growing memory by less than 200 MB`, async () => {
      const cache = temporaryFolder('fairaudit-caps-');
      process.env.FAIRAUDIT_CALIBRATION_CACHE = cache;
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      const result = await runCliInProcess(['calibrate', '--access', 'decision', '--quiet', ...args]);
      const seconds = (performance.now() - started) / 1000;
      const grown = process.memoryUsage().rss - rssBefore;
      delete process.env.FAIRAUDIT_CALIBRATION_CACHE;
      expect(result.stderr).toMatch(message);
      expect(result.code).toBe(2);
      expect(result.stderr).not.toMatch(/RangeError|internal error|\n\s+at /);
      expect(seconds).toBeLessThan(1);
      expect(grown).toBeLessThan(200 * 2 ** 20);
    });
  }
});
