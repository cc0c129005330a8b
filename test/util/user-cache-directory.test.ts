import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userCacheDirectory } from '../../src/util/user-cache-directory.js';

describe('userCacheDirectory(environment)', () => {
  it('takes FAIRAUDIT_CACHE_DIR first', () => {
    expect(userCacheDirectory({ FAIRAUDIT_CACHE_DIR: '/c/own', XDG_CACHE_HOME: '/c/xdg' })).toBe('/c/own');
  });
  it('else $XDG_CACHE_HOME/fairaudit', () => {
    expect(userCacheDirectory({ XDG_CACHE_HOME: '/c/xdg' })).toBe(join('/c/xdg', 'fairaudit'));
  });
  it('ignores a relative XDG_CACHE_HOME and an empty FAIRAUDIT_CACHE_DIR (XDG Base Directory rule)', () => {
    expect(userCacheDirectory({ FAIRAUDIT_CACHE_DIR: '', XDG_CACHE_HOME: 'relative' })).toBe(
      join(homedir(), '.cache', 'fairaudit'),
    );
  });
  it('else ~/.cache/fairaudit', () => {
    expect(userCacheDirectory({})).toBe(join(homedir(), '.cache', 'fairaudit'));
  });
});
