import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * userCacheDirectory(environment) is fairaudit's folder in the user's cache, shared by the
 * CLI and the library: FAIRAUDIT_CACHE_DIR when set, else $XDG_CACHE_HOME/fairaudit (the
 * XDG Base Directory rule: an XDG_CACHE_HOME that is not an absolute path is ignored), else
 * ~/.cache/fairaudit. Pure in the environment it is given. O(1).
 * @param environment the environment variables to read (default process.env)
 * @returns an absolute or user-given folder path (not created)
 * @example
 * userCacheDirectory({ XDG_CACHE_HOME: '/tmp/cache' }); // '/tmp/cache/fairaudit'
 */
export function userCacheDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  const own = environment.FAIRAUDIT_CACHE_DIR;
  if (own !== undefined && own !== '') return own;
  const xdg = environment.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'fairaudit');
  return join(homedir(), '.cache', 'fairaudit');
}
