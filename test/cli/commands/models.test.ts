import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/util/paths.js';
import { runCliInProcess } from '../../helpers/cli.js';

const config = join(packageRoot(), 'papers', 'paper-b', 'configs', 'models', 'compas-race.yaml');

// Bad flags are refused before any data is read or model trained: these tests cost
// milliseconds. Before the checks, --threads 2.5 or abc reached p-limit and failed as an
// internal error (exit 1), and --epochs 0 printed Infinity ms per epoch.
describe('fairaudit models (flag checks, in process)', () => {
  for (const threads of ['0', '2.5', 'abc']) {
    it(`models train CONFIG --threads ${threads} exits 2 naming --threads`, async () => {
      const { code, stderr } = await runCliInProcess(['models', 'train', config, '--threads', threads]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/--threads: expected an integer in \[1, 1024\], found/);
    });
  }

  for (const epochs of ['0', '-1', '1.5', 'x']) {
    it(`models bench --epochs ${epochs} exits 2 naming --epochs`, async () => {
      const { code, stderr } = await runCliInProcess(['models', 'bench', '--epochs', epochs]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/--epochs: expected an integer in \[1, 1000\], found/);
    });
  }
});
