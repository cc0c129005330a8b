import { createRandom } from '../util/random.js';
import type { MlpSettings } from './mlp/mlp-settings.js';
import { toSparseRows } from './mlp/sparse-rows.js';
import { trainMlp } from './mlp/train-mlp.js';
import { mlpKernelModule } from './mlp/wasm/mlp-kernels.js';
import { ADULT_LIKE_SHAPE, syntheticTabularData } from './synthetic-tabular.js';
import { fitGradientBoosting, GRADIENT_BOOSTING_DEFAULTS } from './trees/gradient-boosting.js';

/** The figures `fairaudit models bench` prints. */
export interface ModelsBenchmark {
  readonly rows: number;
  readonly columns: number;
  /** Robust-Base (64-32, dropout 0.1, batch 32): milliseconds per epoch (wall clock, and CPU). */
  readonly robustEpochMilliseconds: number;
  readonly robustEpochCpuMilliseconds: number;
  /** Which kernel trained: 'webassembly' (dist/ built) or 'javascript'. */
  readonly kernel: 'webassembly' | 'javascript';
  /** The same Robust-Base epochs on the JavaScript kernel (same networks), CPU milliseconds per epoch. */
  readonly robustEpochJavascriptCpuMilliseconds: number;
  /** Unstable-Base (16 units, batch 32): milliseconds per epoch (wall clock, and CPU). */
  readonly unstableEpochMilliseconds: number;
  readonly unstableEpochCpuMilliseconds: number;
  /** Projected seconds of paper A's four models on one thread: 330 Robust and 3 Unstable epochs (wall, CPU). */
  readonly projectedPaperASeconds: number;
  readonly projectedPaperACpuSeconds: number;
  /** Boosted trees on a CCD-shaped table (16,500 x 23, 31 leaves): milliseconds per tree (wall, CPU). */
  readonly treeMilliseconds: number;
  readonly treeCpuMilliseconds: number;
}

/**
 * benchmarkModels(mlps, epochs) times the MLP kernel with two settings (`mlps.robust`
 * and `mlps.unstable`: the CLI passes paper A's Robust-Base and Unstable-Base) on an
 * Adult-shaped synthetic table (31,655 rows, 104 one-hot-heavy columns: paper A's
 * training part) and the boosted trees on a CCD-shaped one. The projection counts the MLP trainings paper A's four
 * models need: Robust-Base 30 epochs, Robust-DP 10 x 30, Unstable-Base 1,
 * Unstable-DP 2 x 1. Robust-Base is timed on the kernel trainMlp uses (WebAssembly when
 * dist/ is built) and again on the JavaScript kernel, for comparison. Runs in about
 * epochs * 0.7 s plus 100 trees.
 */
export function benchmarkModels(mlps: { robust: MlpSettings; unstable: MlpSettings }, epochs = 3): ModelsBenchmark {
  const data = syntheticTabularData(ADULT_LIKE_SHAPE, createRandom('bench-models'));
  const input = toSparseRows(data.features, data.rows, data.columns);
  const time = (run: () => void) => {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    run();
    return { wall: performance.now() - wall, cpu: process.cpuUsage(cpu).user / 1000 };
  };
  trainMlp(input, data.label, null, { ...mlps.robust, epochs: 1 }, createRandom('warm-up'));
  const robust = time(() => trainMlp(input, data.label, null, { ...mlps.robust, epochs }, createRandom('robust')));
  const robustJavascript = time(() =>
    trainMlp(input, data.label, null, { ...mlps.robust, epochs }, createRandom('robust'), 'javascript'),
  );
  const unstable = time(() =>
    trainMlp(input, data.label, null, { ...mlps.unstable, epochs }, createRandom('unstable')),
  );
  const robustEpoch = robust.wall / epochs;
  const unstableEpoch = unstable.wall / epochs;
  const trees = syntheticTabularData(
    { rows: 16_500, numericColumns: 20, categoricalLevels: [3], groupEffect: 1 },
    createRandom('bench-trees'),
  );
  const treeRows = Int32Array.from({ length: trees.rows }, (_, i) => i);
  const treeTime = time(() =>
    fitGradientBoosting(
      trees,
      trees.label,
      treeRows,
      { ...GRADIENT_BOOSTING_DEFAULTS, maxIterations: 100, earlyStopping: false },
      createRandom('trees'),
    ),
  );
  return {
    rows: data.rows,
    columns: data.columns,
    robustEpochMilliseconds: robustEpoch,
    robustEpochCpuMilliseconds: robust.cpu / epochs,
    kernel: mlpKernelModule() === null ? 'javascript' : 'webassembly',
    robustEpochJavascriptCpuMilliseconds: robustJavascript.cpu / epochs,
    unstableEpochMilliseconds: unstableEpoch,
    unstableEpochCpuMilliseconds: unstable.cpu / epochs,
    projectedPaperASeconds: (robustEpoch * (30 + 300) + unstableEpoch * 3) / 1000,
    projectedPaperACpuSeconds: ((robust.cpu / epochs) * (30 + 300) + (unstable.cpu / epochs) * 3) / 1000,
    treeMilliseconds: treeTime.wall / 100,
    treeCpuMilliseconds: treeTime.cpu / 100,
  };
}
