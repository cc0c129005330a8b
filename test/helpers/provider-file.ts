import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderEndpoint } from '../../src/pir/provider-connection.js';
import { writeProviderFile } from '../../src/pir/provider-file.js';

/** providerFileFor(endpoint) writes the provider file `pir serve --url-file` would write (mode 0600) to a new temporary
 * folder and returns its path. */
export function providerFileFor(endpoint: ProviderEndpoint): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fairaudit-provider-')), 'provider.json');
  writeProviderFile(path, { url: endpoint.url, token: endpoint.token });
  return path;
}
