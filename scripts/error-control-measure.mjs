// Measurement harness for issue 11, phase 1 (run after `npm run build`; numbers go to stdout as JSON lines).
//   node scripts/error-control-measure.mjs calibrate-speed [paths] [threads]   Adult SP decision setting, timed
//   node scripts/error-control-measure.mjs bars [replicates] [paths]            the bars
//   node scripts/error-control-measure.mjs worker                               (internal: a calibration worker)
// Calibration chunks run on worker threads; every chunk has its own seed, so the result does not
// depend on the thread count.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/src/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);

if (!isMainThread) {
  const { planCalibration } = await load('audit/calibration-plan.js');
  const { certificationChunks } = await load('audit/calibration-plan.js');
  const { runTuningChunk, runCertificationChunk } = await load('audit/calibration-chunks.js');
  const plan = planCalibration(workerData.setting, workerData.options);
  parentPort.on('message', (job) => {
    if (job.stage === 'tune') {
      const counts = runTuningChunk(plan, plan.chunks[job.index]);
      const transfer = [counts.nullBins?.buffer, counts.alternativeBins?.buffer].filter(Boolean);
      parentPort.postMessage({ id: job.id, counts }, transfer);
    } else {
      const chunk = certificationChunks(plan, job.round)[job.index];
      parentPort.postMessage({ id: job.id, outcome: runCertificationChunk(plan, job.thresholds, chunk) });
    }
  });
} else {
  const mode = process.argv[2] ?? 'bars';
  const { planCalibration, certificationChunks } = await load('audit/calibration-plan.js');
  const { chooseThresholds } = await load('audit/choose-thresholds.js');
  const { certifyOutcomes } = await load('audit/calibrate-glr-thresholds.js');
  const { emptyPathCounts, mergePathCounts, upperThreshold, lowerThreshold } = await load('audit/threshold-paths.js');
  const { mergeOutcomeCounts } = await load('audit/calibration-chunks.js');

  /** The calibration driver of calibrateGlrThresholds, with chunks on `threads` worker threads. */
  async function calibrateParallel(setting, options, threads) {
    const plan = planCalibration(setting, options);
    const workers = Array.from({ length: threads }, () => new Worker(fileURLToPath(import.meta.url), { workerData: { setting, options } }));
    let nextId = 0;
    const pending = new Map();
    for (const w of workers) w.on('message', (m) => { pending.get(m.id)(m); pending.delete(m.id); });
    const run = (jobs) => {
      const results = new Array(jobs.length);
      let cursor = 0;
      return new Promise((resolve) => {
        let done = 0;
        const feed = (w) => {
          if (cursor >= jobs.length) return;
          const i = cursor++;
          const id = nextId++;
          pending.set(id, (m) => { results[i] = m; done++; if (done === jobs.length) resolve(results); else feed(w); });
          w.postMessage({ ...jobs[i], id });
        };
        for (const w of workers) feed(w);
      });
    };
    const t0 = performance.now();
    const tuning = plan.cells.map((c) => emptyPathCounts(plan.grid, c.role !== 'alternative', c.role !== 'null'));
    const tuned = await run(plan.chunks.map((_, index) => ({ stage: 'tune', index })));
    tuned.forEach((m, i) => mergePathCounts(tuning[plan.chunks[i].cell], m.counts));
    const tuneSeconds = (performance.now() - t0) / 1000;
    const choice = chooseThresholds(plan, tuning);
    let upperIndex = choice.upperIndex;
    let lowerIndex = choice.lowerIndex;
    const certifications = [];
    for (let round = 0; round < plan.rounds; round++) {
      const thresholds = { upper: upperThreshold(plan.grid, upperIndex), lower: lowerThreshold(plan.grid, lowerIndex) };
      const chunks = certificationChunks(plan, round);
      const outcomes = plan.cells.map(() => ({ paths: 0, reject: 0, accept: 0, inconclusive: 0, queries: 0 }));
      const results = await run(chunks.map((_, index) => ({ stage: 'certify', index, round, thresholds })));
      results.forEach((m, i) => mergeOutcomeCounts(outcomes[chunks[i].cell], m.outcome));
      const certification = certifyOutcomes(plan, thresholds, outcomes, round, choice.testConfidence);
      certifications.push(certification);
      if (certification.passed) break;
      if (certification.errors.some((e) => e.error === 'reject' && e.upperBound > setting.alpha)) upperIndex++;
      if (certification.errors.some((e) => e.error === 'accept' && e.upperBound > setting.beta)) lowerIndex++;
    }
    for (const w of workers) await w.terminate();
    const last = certifications.at(-1);
    const worst = (kind) => last.errors.filter((e) => e.error === kind).sort((a, b) => b.upperBound - a.upperBound)[0];
    return {
      upper: last.upper, lower: last.lower, certified: last.passed, rounds: certifications.length,
      upperInterval: choice.upperInterval, lowerInterval: choice.lowerInterval, testConfidence: choice.testConfidence,
      worstReject: worst('reject'), worstAccept: worst('accept'), cells: plan.cells.length,
      seconds: (performance.now() - t0) / 1000, tuneSeconds, errors: last.errors,
    };
  }

  const out = (record) => console.log(JSON.stringify(record));

  if (mode === 'calibrate-speed') {
    const paths = Number(process.argv[3] ?? 4000);
    const threads = Number(process.argv[4] ?? 2);
    // Adult, paper A's 30% stratified test split (seed paper-a-2026): SP pool 9207 (a, male) + 4360 (b, female).
    const setting = { access: 'decision', countA: 9207, countB: 4360, tolerance: 0.05, budget: 4000, minimumPerGroup: 1, order: 'random', alpha: 0.05, beta: 0.2 };
    const result = await calibrateParallel(setting, { seed: 'adult-sp-decision', paths }, threads);
    const { errors, ...summary } = result;
    out({ mode, paths, threads, ...summary });
    for (const e of errors) out({ cell: e.cell, role: e.role, error: e.error, rate: e.rate, upperBound: e.upperBound });
  }

  if (mode === 'bars') {
    const replicates = Number(process.argv[3] ?? 4000);
    const paths = Number(process.argv[4] ?? 4000);
    const threads = Number(process.argv[5] ?? 2);
    // Optional: the start rule (default 1, paper A's), and which pools and access regimes (comma lists).
    const minimumPerGroup = Number(process.argv[6] ?? 1);
    const onlyPools = process.argv[7] ? process.argv[7].split(',') : null;
    const onlyAccess = process.argv[8] ? process.argv[8].split(',') : ['decision', 'score'];
    const { generateSyntheticPool } = await load('data/synthetic-pool.js');
    const { calibratedPool } = await load('data/calibrated-pools.js');
    const { prepareAudit } = await load('audit/prepare-audit.js');
    const { createSequentialTest } = await load('audit/create-sequential-test.js');
    const { simulateAudits, operatingPoint } = await load('audit/operating-characteristics.js');
    const recipe = (rates) => ({ size: 20000, groupShare: 0.4, labelRate: [0.45, 0.4], decisionRate: rates, logitScale: 1, seed: 'audit' });
    const pools = [
      { name: 'fair (gap 0)', key: 'fair', pool: generateSyntheticPool(recipe([0.4, 0.4])) },
      { name: 'compliant (gap 0.045)', key: 'compliant', pool: generateSyntheticPool(recipe([0.4, 0.355])) },
      { name: 'Adult Robust-Base calibrated (SP gap 0.1716)', key: 'adult', pool: calibratedPool('adult', 'robust-base') },
    ].filter((p) => onlyPools === null || onlyPools.includes(p.key));
    const calibrations = new Map();
    for (const access of onlyAccess) {
      for (const { name, pool } of pools) {
        const prepared = prepareAudit(pool, 'sp', access);
        const setting = {
          access, countA: prepared.countA, countB: prepared.countB, tolerance: 0.05, budget: 4000, minimumPerGroup,
          order: 'random', alpha: 0.05, beta: 0.2,
          ...(access === 'decision' ? {} : { group: prepared.group, value: prepared.value }),
        };
        // Decision access depends on the pool only through its group sizes: calibrate once per size pair.
        const key = access === 'decision' ? `decision ${prepared.countA}/${prepared.countB} m${minimumPerGroup}` : `${access} ${name} m${minimumPerGroup}`;
        let calibration = calibrations.get(key);
        if (calibration === undefined) {
          calibration = await calibrateParallel(setting, { seed: `bars:${key}`, paths }, threads);
          calibrations.set(key, calibration);
          const { errors, ...calibrationSummary } = calibration;
          out({ mode, stage: 'calibration', access, pool: name, key, ...calibrationSummary });
        }
        for (const test of ['wald-glr', 'calibrated-glr', 'betting', 'confidence-sequence']) {
          const t = createSequentialTest(prepared, {
            test, tolerance: 0.05, alpha: 0.05, beta: 0.2, order: 'random', minimumPerGroup,
            thresholds: { upper: calibration.upper, lower: calibration.lower },
          });
          const c0 = process.cpuUsage();
          const outcomes = simulateAudits(prepared, t, 4000, 'random', `bars:${name}:${access}`, 0, replicates);
          const c = process.cpuUsage(c0);
          const point = operatingPoint(outcomes);
          out({
            mode, stage: 'audits', access, pool: name, minimumPerGroup, oracleGap: prepared.oracleSignedGap, proxyGap: prepared.proxyGap, test,
            replicates, reject: point.reject, accept: point.accept, inconclusive: point.inconclusive,
            rejectRate: point.rejectRate, rejectSE: point.rejectStandardError, meanQueries: point.meanQueries,
            meanQueriesSE: point.meanQueriesStandardError, quantiles: point.queryQuantiles,
            cpuNsPerQuery: ((c.user + c.system) * 1000) / outcomes.queries.reduce((a, b) => a + b, 0),
          });
        }
      }
    }
  }
}

if (isMainThread && process.argv[2] === 'oc') {
  // Operating characteristic over true gaps (pool moved by re-deciding rows of group b), decision access.
  const replicates = Number(process.argv[3] ?? 1000);
  const upper = Number(process.argv[4] ?? 5);
  const lower = Number(process.argv[5] ?? -2.5);
  const { generateSyntheticPool } = await load('data/synthetic-pool.js');
  const { operatingCurve } = await load('audit/operating-characteristic-curve.js');
  const pool = generateSyntheticPool({ size: 20000, groupShare: 0.4, labelRate: [0.45, 0.4], decisionRate: [0.4, 0.4], logitScale: 1, seed: 'audit' });
  for (const test of ['wald-glr', 'calibrated-glr', 'betting']) {
    const curve = operatingCurve(pool, {
      metric: 'sp', access: 'decision', gaps: [0, 0.02, 0.04, 0.05, 0.06, 0.08, 0.1, 0.17], move: 're-decide',
      testSettings: { test, tolerance: 0.05, alpha: 0.05, beta: 0.2, order: 'random', thresholds: { upper, lower } },
      budget: 4000, replicates, seed: 'oc',
    });
    for (const p of curve) {
      console.log(JSON.stringify({ mode: 'oc', test, gap: p.decisionGap, changedRows: p.changedRows, reject: p.point.rejectRate, rejectSE: p.point.rejectStandardError, accept: p.point.acceptRate, acceptSE: p.point.acceptStandardError, inconclusive: p.point.inconclusiveRate, meanQueries: p.point.meanQueries, meanQueriesSE: p.point.meanQueriesStandardError, quantiles: p.point.queryQuantiles }));
    }
  }
}

if (isMainThread && process.argv[2] === 'orders') {
  // Random versus balanced query order on paper A's calibrated pools (decision access, SP and EO).
  const replicates = Number(process.argv[3] ?? 2000);
  const { calibratedPool } = await load('data/calibrated-pools.js');
  const { prepareAudit } = await load('audit/prepare-audit.js');
  const { createSequentialTest } = await load('audit/create-sequential-test.js');
  const { simulateAudits, operatingPoint } = await load('audit/operating-characteristics.js');
  for (const [dataset, model] of [['adult', 'robust-base'], ['acs', 'robust-base'], ['adult', 'unstable-base'], ['acs', 'unstable-base']]) {
    for (const metric of ['sp', 'eo']) {
      const prepared = prepareAudit(calibratedPool(dataset, model), metric, 'decision');
      for (const test of ['wald-glr', 'betting']) {
        for (const order of ['random', 'balanced']) {
          const t = createSequentialTest(prepared, { test, tolerance: 0.05, alpha: 0.05, beta: 0.2, order });
          const point = operatingPoint(simulateAudits(prepared, t, 4000, order, `orders:${dataset}:${model}:${metric}`, 0, replicates));
          console.log(JSON.stringify({ mode: 'orders', dataset, model, metric, gap: prepared.oracleSignedGap, countA: prepared.countA, countB: prepared.countB, test, order, reject: point.rejectRate, accept: point.acceptRate, inconclusive: point.inconclusiveRate, meanQueries: point.meanQueries, meanQueriesSE: point.meanQueriesStandardError }));
        }
      }
    }
  }
}
