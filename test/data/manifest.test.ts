import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestFolder, readManifest } from '../../src/data/manifest.js';
import { datasetNames } from '../../src/data/registry.js';

describe('readManifest(name)', () => {
  it('every registered dataset has a valid data/NAME.json and every manifest a dataset', () => {
    const files = readdirSync(manifestFolder()).filter((name) => name.endsWith('.json'));
    expect(files.map((name) => name.replace(/\.json$/, '')).sort()).toEqual([...datasetNames()].sort());
    for (const name of datasetNames()) {
      const manifest = readManifest(name);
      expect(manifest.name).toBe(name);
      for (const form of manifest.forms) {
        for (const file of form.files) {
          for (const url of file.urls) expect(url).toMatch(/^https:\/\//);
          if (file.sha256 !== null) expect(file.size).not.toBeNull(); // a checksum without a size would skip the cheap
          // check
        }
      }
    }
  });

  it('readManifest names the file and key of a malformed manifest', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-manifest-'));
    writeFileSync(
      join(folder, 'bad.json'),
      JSON.stringify({
        name: 'bad',
        title: 't',
        homepage: 'h',
        citation: 'c',
        license: 'l',
        folders: [],
        forms: [{ name: 'f', description: 'd', files: [{ name: 'x', size: 1, sha256: 'ABC', urls: [] }] }],
      }),
    );
    expect(() => readManifest('bad', folder)).toThrow(
      /bad\.json: forms\[0\]\.files\[0\]\.sha256: expected 64 lower-case hex digits or null, found "ABC"/,
    );
    writeFileSync(join(folder, 'broken.json'), '{');
    expect(() => readManifest('broken', folder)).toThrow(/broken\.json: expected JSON/);
    expect(() => readManifest('absent', folder)).toThrow(/absent\.json: expected the manifest of dataset "absent"/);
  });
});
