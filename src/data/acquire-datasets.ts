import type { DataLocationOptions } from './data-locations.js';
import { datasetAvailability } from './dataset-availability.js';
import { type DownloadProgress, fetchDataset } from './fetch-dataset.js';
import { type ManifestForm, readManifest } from './manifest.js';
import { datasetDefinition } from './registry.js';

/** The environment variable that turns downloads off (`FAIRAUDIT_OFFLINE=1`), like --offline. */
export const OFFLINE_VARIABLE = 'FAIRAUDIT_OFFLINE';

/** Options of acquireDatasets. */
export interface AcquireOptions extends DataLocationOptions {
  /** Never touch the network (--offline); FAIRAUDIT_OFFLINE=1 (or true, yes) does the same. */
  readonly offline?: boolean;
  /** How long the one reachability probe may take before the network counts as unreachable (default 3000 ms). */
  readonly probeTimeoutMs?: number;
  /** A download that sends nothing for this long is abandoned (default 30000 ms). */
  readonly idleTimeoutMs?: number;
  /** Progress of each file being downloaded, for a bar. */
  readonly onProgress?: (dataset: string, progress: DownloadProgress) => void;
}

/** What acquireDatasets found and did. */
export interface Acquisition {
  /** Datasets already complete in the mirror or data/downloads/. */
  readonly present: string[];
  /** Datasets downloaded now (checksums verified). */
  readonly fetched: string[];
  /** Datasets still missing, each with why (offline, unreachable, no verified download, a failed download). */
  readonly unavailable: Array<{ readonly name: string; readonly reason: string }>;
  /** 'skipped': nothing to fetch or offline; else the probe's outcome. */
  readonly network: 'skipped' | 'offline' | 'reachable' | 'unreachable';
}

/** isOfflineRequested(flag) is the --offline flag, or FAIRAUDIT_OFFLINE set to 1, true or yes (any case). */
export function isOfflineRequested(flag: boolean | undefined): boolean {
  if (flag === true) return true;
  const value = (process.env[OFFLINE_VARIABLE] ?? '').trim().toLowerCase();
  return value === '1' || value === 'true' || value === 'yes';
}

/**
 * verifiedForm(forms) is the first readable form whose every required file has a URL and
 * a published sha256: the only forms fetched unattended, so nothing unverified lands in
 * a reproduction (the Census PUMS files and HateDay have no checksum or no URL). O(files).
 */
export function verifiedForm(forms: readonly ManifestForm[]): ManifestForm | null {
  return (
    forms.find(
      (form) =>
        form.readable !== false &&
        form.files.every((file) => file.optional === true || (file.urls.length > 0 && file.sha256 !== null)),
    ) ?? null
  );
}

/**
 * probeNetwork(url, timeoutMs) asks one HEAD of `url` and says whether any HTTP answer
 * (of any status) came back within timeoutMs; a DNS failure, a refused connection or
 * the timeout mean unreachable. Never throws; bounded by timeoutMs. O(1).
 */
export async function probeNetwork(url: string, timeoutMs: number): Promise<{ reachable: boolean; detail: string }> {
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return { reachable: true, detail: `HTTP ${response.status}` };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      return { reachable: false, detail: `no answer within ${timeoutMs} ms` };
    return { reachable: false, detail: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

/**
 * acquireDatasets(names, options) makes sure the named datasets are there before a
 * reproduction reads them: those complete in the mirror or data/downloads/ are left
 * alone; for the others, unless offline (options.offline or FAIRAUDIT_OFFLINE=1), one
 * reachability probe (a HEAD of the first URL to fetch, at most probeTimeoutMs) decides
 * whether to try, then each dataset with a verified form (verifiedForm: URLs and sha256
 * for every file) is downloaded with fetchDataset (size and sha256 checked, stored
 * atomically in data/downloads/NAME/). Whatever could not be had is listed with its
 * reason; the caller falls back to its calibrated default for those. Never throws for
 * a missing or failed download (the reason says what happened); throws InputError for
 * an unknown name or a mirror path that is not a folder. Running time: the probe plus
 * the downloads.
 */
export async function acquireDatasets(names: readonly string[], options: AcquireOptions = {}): Promise<Acquisition> {
  for (const name of names) datasetDefinition(name);
  const availability = datasetAvailability(options, names);
  const present = availability.filter((entry) => entry.status === 'ready').map((entry) => entry.name);
  const missing = availability.filter((entry) => entry.status !== 'ready').map((entry) => entry.name);
  const unavailable: Array<{ name: string; reason: string }> = [];
  const wanted: Array<{ name: string; form: ManifestForm }> = [];
  for (const name of missing) {
    const form = verifiedForm(readManifest(name, options.manifestDirectory).forms);
    if (form === null)
      unavailable.push({ name, reason: 'no download with a published checksum (bring your own copy: docs/data.md)' });
    else wanted.push({ name, form });
  }
  if (wanted.length === 0) return { present, fetched: [], unavailable, network: 'skipped' };
  if (isOfflineRequested(options.offline)) {
    for (const { name } of wanted) unavailable.push({ name, reason: `offline (--offline or ${OFFLINE_VARIABLE}=1)` });
    return { present, fetched: [], unavailable, network: 'offline' };
  }
  const probeUrl = wanted[0].form.files.find((file) => file.urls.length > 0)?.urls[0] as string;
  const probe = await probeNetwork(probeUrl, options.probeTimeoutMs ?? 3000);
  if (!probe.reachable) {
    const host = new URL(probeUrl).host;
    for (const { name } of wanted) unavailable.push({ name, reason: `network unreachable (${host}: ${probe.detail})` });
    return { present, fetched: [], unavailable, network: 'unreachable' };
  }
  const fetched: string[] = [];
  for (const { name, form } of wanted) {
    try {
      await fetchDataset(name, {
        ...options,
        form: form.name,
        idleTimeoutMs: options.idleTimeoutMs,
        onProgress: (progress) => options.onProgress?.(name, progress),
      });
      fetched.push(name);
    } catch (error) {
      unavailable.push({ name, reason: oneLine((error as Error).message) });
    }
  }
  return { present, fetched, unavailable, network: 'reachable' };
}

/** oneLine(message) is fetchDataset's message (a line per URL tried, then the advice to use a mirror) as one line,
 * without the advice. */
function oneLine(message: string): string {
  const lines = message.split('\n').map((line) => line.trim());
  return lines.filter((line) => line !== '' && !line.startsWith('Alternatively')).join(' ');
}

/**
 * acquisitionNotice(acquisition) is the one line a reproduction prints about data it
 * could not get ("could not fetch adult, ccd (network unreachable ...); their outputs
 * use the calibrated default"), or null when nothing is missing. O(datasets).
 */
export function acquisitionNotice(acquisition: Acquisition): string | null {
  if (acquisition.unavailable.length === 0) return null;
  const byReason = new Map<string, string[]>();
  for (const { name, reason } of acquisition.unavailable) byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
  const parts = [...byReason].map(([reason, list]) => `${list.join(', ')} (${reason})`);
  return (
    `could not fetch ${parts.join('; ')}: outputs that need them use the calibrated default or are listed ` +
    `as unavailable`
  );
}
