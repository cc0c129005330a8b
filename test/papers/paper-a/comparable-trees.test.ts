import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { calibratedPools, type TrainedPoolsProvider } from '../../../papers/paper-a/pool-sources.js';
import { reproducePaperA } from '../../../papers/paper-a/reproduce.js';
import { parseOverride } from '../../../src/harness/config.js';
import { filesOf } from '../../helpers/folder-snapshot.js';

// Stand-in trained pools (the calibrated ones relabelled), read from the model cache or not:
// the cold and the warm run of the same reproduction.
const trained =
  (cached: boolean): TrainedPoolsProvider =>
  async (dataset) => ({
    available: true,
    pools: calibratedPools(dataset, '').map((entry) => ({
      ...entry,
      origin: 'trained-model' as const,
      reason: null,
      cached,
    })),
  });

describe('reproducePaperA(...) from two results paths, cold and warm model cache', () => {
  const root = mkdtempSync(join(tmpdir(), 'paper-a-trees-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('gives trees that differ only in run.json provenance', async () => {
    const reproduce = (out: string, cached: boolean, threads: number) =>
      reproducePaperA({
        outDirectory: out,
        trainedPools: trained(cached),
        overrides: [parseOverride('replicates=3')],
        beyond: false,
        png: false,
        threads,
      });
    const cold = join(root, 'cold');
    const warm = join(root, 'elsewhere', 'deeper', 'warm');
    await reproduce(cold, false, 1);
    await reproduce(warm, true, 2);
    const files = filesOf(cold);
    expect(filesOf(warm)).toEqual(files);
    expect(files.filter((file) => file.endsWith('run.json'))).toHaveLength(3);
    for (const file of files) {
      const [a, b] = [readFileSync(join(cold, file)), readFileSync(join(warm, file))];
      if (!file.endsWith('run.json')) {
        expect(a.equals(b), `${file} differs`).toBe(true);
        const text = a.toString('latin1');
        expect(text.includes(root), `${file} names the results path`).toBe(false);
        expect(text.includes(process.cwd()), `${file} names the checkout`).toBe(false);
        expect(/"cached": (true|false)|, cached|\(cached\)/.test(text), `${file} says whether a model was cached`).toBe(
          false,
        );
        continue;
      }
      const [left, right] = [JSON.parse(a.toString('utf8')), JSON.parse(b.toString('utf8'))];
      // The cache state lives in the provenance, and only there.
      expect(left.provenance.notes['pool adult-robust-dp']).toBe('trained model, trained now');
      expect(right.provenance.notes['pool adult-robust-dp']).toBe('trained model, cached');
      delete left.provenance;
      delete right.provenance;
      expect(right).toEqual(left);
      expect(JSON.stringify(left).includes(root)).toBe(false);
    }
  }, 120_000);
});
