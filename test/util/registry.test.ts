import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import { Registry } from '../../src/util/registry.js';

describe('Registry(what)', () => {
  it('register(entry) keeps entries in registration order; find and get return them', () => {
    const registry = new Registry<{ name: string; value: number }>('thing');
    registry.register({ name: 'b', value: 1 });
    registry.register({ name: 'a', value: 2 });
    expect(registry.names()).toEqual(['b', 'a']);
    expect(registry.find('a')?.value).toBe(2);
    expect(registry.get('b', 'x').value).toBe(1);
    expect(registry.find('c')).toBeUndefined();
    expect(registry.has('a')).toBe(true);
  });
  it('register(entry) refuses a name already registered instead of replacing it', () => {
    const registry = new Registry<{ name: string }>('paper layout');
    registry.register({ name: 'paper-a' });
    expect(() => registry.register({ name: 'paper-a' })).toThrow(
      /register paper layout: "paper-a" is already registered/,
    );
    expect(() => registry.register({ name: '' })).toThrow(/non-empty name/);
  });
  it('get(name, where) throws InputError naming where and the registered names', () => {
    const registry = new Registry<{ name: string }>('experiment kind');
    registry.register({ name: 'respir' });
    registry.register({ name: 'sequential-audit' });
    expect(() => registry.get('mystery', 'run.json: kind')).toThrow(InputError);
    expect(() => registry.get('mystery', 'run.json: kind')).toThrow(
      'run.json: kind: expected an experiment kind (respir, sequential-audit), found "mystery"',
    );
  });
});

describe('Registry.of(what, entries)', () => {
  it('holds the entries in their order and refuses a repeated name, as register does', () => {
    const registry = Registry.of('dataset', [{ name: 'adult' }, { name: 'ccd' }]);
    expect(registry.names()).toEqual(['adult', 'ccd']);
    expect(registry.get('ccd', '--dataset')).toEqual({ name: 'ccd' });
    expect(() => Registry.of('dataset', [{ name: 'adult' }, { name: 'adult' }])).toThrow(
      'register dataset: "adult" is already registered; choose another name',
    );
  });
});
