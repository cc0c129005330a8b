import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Calibrations computed by a test file (and the CLIs it spawns, which inherit the
// environment) go to a temporary cache of that file, never to data/cache/calibrations.
process.env.FAIRAUDIT_CALIBRATION_CACHE ??= mkdtempSync(join(tmpdir(), 'fairaudit-calibrations-'));
