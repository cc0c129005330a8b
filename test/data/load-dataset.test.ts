import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/data/load-dataset.js';
import { prepareSplit } from '../../src/data/prepare-split.js';
import { InputError } from '../../src/util/errors.js';
import { adultFixture, writeAdultManifest } from '../fixtures/adult-fixture.js';
import { sum } from './real-datasets.js';

/** A temporary workspace: a mirror, a downloads folder and a manifest folder. */
function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-data-'));
  const mirror = join(root, 'mirror');
  const downloads = join(root, 'downloads');
  const manifests = join(root, 'manifests');
  mkdirSync(mirror);
  mkdirSync(downloads);
  return { root, mirror, downloads, manifests };
}

/** Writes an Adult fixture into the mirror (folder layout or flat) and its manifest. */
function adultWorkspace(options: { flat?: boolean; data?: string; test?: string } = {}) {
  const space = workspace();
  const fixture = adultFixture(200, 3);
  const data = options.data ?? fixture.data;
  const test = options.test ?? fixture.test;
  const folder = options.flat ? space.mirror : join(space.mirror, 'adult');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'adult.data'), data);
  writeFileSync(join(folder, 'adult.test'), test);
  writeAdultManifest(space.manifests, { data, test });
  const options_ = {
    dataDirectory: space.mirror,
    downloadsDirectory: space.downloads,
    manifestDirectory: space.manifests,
  };
  return { ...space, fixture, options: options_ };
}

async function loadError(name: string, options: Parameters<typeof loadDataset>[1]): Promise<InputError> {
  try {
    await loadDataset(name, options);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('loadDataset did not throw');
}

describe('loadDataset(name, options) on generated Adult files', () => {
  it('loadDataset("adult") reads a mirror with a folder per dataset and verifies the files', async () => {
    const { fixture, options } = adultWorkspace();
    const table = await loadDataset('adult', options);
    expect(table.rows).toBe(fixture.completeRows);
    expect(sum(table.label)).toBe(fixture.positives);
    expect(table.files.every((file) => file.check === 'verified')).toBe(true);
  });

  it('loadDataset("adult") reads a flat mirror', async () => {
    const { fixture, options } = adultWorkspace({ flat: true });
    expect((await loadDataset('adult', options)).rows).toBe(fixture.completeRows);
  });

  it('loadDataset("adult", {dropMissing: false}) keeps every row, "?" as a level', async () => {
    const { options } = adultWorkspace();
    const table = await loadDataset('adult', { ...options, dropMissing: false });
    expect(table.rows).toBe(400);
    const workclass = table.columns[1];
    expect(workclass.kind === 'categorical' && workclass.levels.includes('?')).toBe(true);
  });

  it('loadDataset("adult") finds files in the downloads folder when no mirror is set', async () => {
    const space = workspace();
    const fixture = adultFixture(50, 4);
    mkdirSync(join(space.downloads, 'adult'));
    writeFileSync(join(space.downloads, 'adult', 'adult.data'), fixture.data);
    writeFileSync(join(space.downloads, 'adult', 'adult.test'), fixture.test);
    writeAdultManifest(space.manifests, fixture);
    const saved = process.env.FAIRAUDIT_DATA_DIR;
    delete process.env.FAIRAUDIT_DATA_DIR;
    try {
      const table = await loadDataset('adult', {
        downloadsDirectory: space.downloads,
        manifestDirectory: space.manifests,
      });
      expect(table.rows).toBe(fixture.completeRows);
    } finally {
      if (saved !== undefined) process.env.FAIRAUDIT_DATA_DIR = saved;
    }
  });

  it('loadDataset("adult") with no files says what is missing and the two ways to provide it', async () => {
    const space = workspace();
    writeAdultManifest(space.manifests, adultFixture(5), {
      data: ['http://127.0.0.1:9/adult.data'],
      test: ['http://127.0.0.1:9/adult.test'],
    });
    const error = await loadError('adult', {
      dataDirectory: space.mirror,
      downloadsDirectory: space.downloads,
      manifestDirectory: space.manifests,
    });
    expect(error.message).toMatch(/dataset "adult".*missing/);
    expect(error.message).toMatch(/adult\.data \+ adult\.test/);
    expect(error.message).toMatch(/fairaudit data fetch adult/);
    expect(error.message).toMatch(/--data-dir DIR or FAIRAUDIT_DATA_DIR=DIR/);
  });

  it('loadDataset("adult") with one of two files is "incomplete" and names the missing file', async () => {
    const space = workspace();
    const fixture = adultFixture(5);
    writeAdultManifest(space.manifests, fixture);
    writeFileSync(join(space.mirror, 'adult.data'), fixture.data);
    const error = await loadError('adult', {
      dataDirectory: space.mirror,
      downloadsDirectory: space.downloads,
      manifestDirectory: space.manifests,
    });
    expect(error.message).toMatch(/incomplete/);
    expect(error.message).toMatch(/missing adult\.test \(found .*adult\.data\)/);
  });

  it('loadDataset rejects a file whose sha256 differs from the manifest (same size)', async () => {
    const { mirror, options, fixture } = adultWorkspace();
    const altered = fixture.data.replace('Private', 'Privata');
    writeFileSync(join(mirror, 'adult', 'adult.data'), altered);
    const error = await loadError('adult', options);
    expect(error.message).toMatch(/adult\.data: expected sha256 [0-9a-f]{64}.*found [0-9a-f]{64}/);
  });

  it('loadDataset rejects a truncated file by its size before parsing it', async () => {
    const { mirror, options, fixture } = adultWorkspace();
    writeFileSync(join(mirror, 'adult', 'adult.test'), fixture.test.slice(0, 1000));
    const error = await loadError('adult', options);
    expect(error.message).toMatch(/adult\.test: expected \d+ bytes .*found 1000 bytes/);
  });

  it('loadDataset names file and line for a wrong field count (a truncated last row, unverified)', async () => {
    const { options, fixture, mirror } = adultWorkspace();
    const cut = fixture.data.slice(0, fixture.data.indexOf('\n', 500) + 20); // line 1 is whole, the last is cut
    writeFileSync(join(mirror, 'adult', 'adult.data'), cut);
    const error = await loadError('adult', { ...options, verify: false });
    const lastLine = cut.split('\n').length;
    expect(error.message).toContain(`adult.data: line ${lastLine}: expected 15 comma-separated fields`);
  });

  it('loadDataset names file, line and column for a bad label', async () => {
    const { fixture } = adultWorkspace();
    const lines = fixture.test.split('\n');
    lines[3] = lines[3].replace(/<=50K\.|>50K\./, 'maybe');
    const { options } = adultWorkspace({ test: lines.join('\n') });
    const error = await loadError('adult', options);
    expect(error.message).toMatch(/adult\.test: line 4, column income: expected an income label.*found "maybe"/);
  });

  it('loadDataset names file, line and column for a non-number', async () => {
    const { fixture } = adultWorkspace();
    const lines = fixture.data.split('\n');
    lines[0] = `forty${lines[0].slice(lines[0].indexOf(','))}`;
    const { options } = adultWorkspace({ data: lines.join('\n') });
    const error = await loadError('adult', options);
    expect(error.message).toMatch(/adult\.data: line 1, column age: expected a number, found "forty"/);
  });

  it('loadDataset("nope") lists the datasets', async () => {
    await expect(loadDataset('nope')).rejects.toThrow(
      /expected one of acs-income, adult, ccd, compas, hateday, found "nope"/,
    );
  });

  it('loadDataset with a --data-dir that is not a folder says so', async () => {
    await expect(loadDataset('adult', { dataDirectory: '/nonexistent/fairaudit' })).rejects.toThrow(
      /--data-dir \/nonexistent\/fairaudit: expected a folder/,
    );
  });
});

describe('prepareSplit(table, options) on generated Adult files', () => {
  it('prepareSplit(paper-a) fits the preprocessing on the training part only and is fixed by the seed', async () => {
    const { options } = adultWorkspace();
    const table = await loadDataset('adult', options);
    const a = prepareSplit(table, { scheme: 'paper-a', seed: 5 });
    const b = prepareSplit(table, { scheme: 'paper-a', seed: 5 });
    const c = prepareSplit(table, { scheme: 'paper-a', seed: 6 });
    expect(Array.from(a.heldOut.rowIndex)).toEqual(Array.from(b.heldOut.rowIndex));
    expect(Array.from(a.heldOut.rowIndex)).not.toEqual(Array.from(c.heldOut.rowIndex));
    // standardised on the training part: each numeric feature has mean 0 there
    const ageColumn = a.train.featureNames.indexOf('age');
    let mean = 0;
    for (let i = 0; i < a.train.rows; i++) mean += a.train.features[i * a.train.columns + ageColumn];
    expect(Math.abs(mean / a.train.rows)).toBeLessThan(1e-12);
    expect(a.train.featureNames).toContain('sex=Female'); // Adult keeps sex as a feature by default
    expect(a.auditRows).toBeNull();
    // label-stratified: the positive share of the test part is the whole table's, to rounding
    const positives = sum(table.label);
    expect(Math.abs(sum(a.heldOut.label) - (positives * a.heldOut.rows) / table.rows)).toBeLessThan(1);
  });

  it('prepareSplit(paper-b) draws a group-stratified candidate set and an audit set within it', async () => {
    const { options } = adultWorkspace();
    const table = await loadDataset('adult', options);
    const split = prepareSplit(table, {
      scheme: 'paper-b',
      seed: 1,
      heldOutFraction: 0.5,
      auditFraction: 0.4,
      dropProtectedColumn: true,
    });
    expect(split.heldOut.rows).toBe(Math.ceil(table.rows * 0.5));
    expect(split.auditRows?.length).toBe(Math.ceil(split.heldOut.rows * 0.4));
    const groupB = sum(table.protectedAttributes[0].group);
    expect(Math.abs(sum(split.heldOut.group) - (groupB * split.heldOut.rows) / table.rows)).toBeLessThan(1);
    expect(split.train.featureNames.some((name) => name.startsWith('sex'))).toBe(false);
  });

  it('prepareSplit rejects an unknown protected attribute and a fraction outside (0, 1)', async () => {
    const { options } = adultWorkspace();
    const table = await loadDataset('adult', options);
    expect(() => prepareSplit(table, { scheme: 'paper-a', seed: 1, protectedAttribute: 'race' })).toThrow(
      /expected a protected attribute of adult: sex, found "race"/,
    );
    expect(() => prepareSplit(table, { scheme: 'paper-a', seed: 1, heldOutFraction: 1.5 })).toThrow(
      /heldOutFraction: expected a fraction in \(0, 1\)/,
    );
  });
});
