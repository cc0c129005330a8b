import type { AccessRegime } from './access-regime.js';
import type { TestName } from './audit-test.js';
import type { FairnessMetric } from './metric.js';
import type { SequentialDecision } from './sequential-audit.js';

/** What a sequential audit concluded, in the auditor's words: H0 rejected, accepted, or neither. */
export const VERDICTS = ['violation', 'compliant', 'inconclusive'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The verdict of a sequential decision: reject H0 is a violation, accept H0 compliance. O(1). */
export function verdictOf(decision: SequentialDecision): Verdict {
  if (decision === 'reject') return 'violation';
  if (decision === 'accept') return 'compliant';
  return 'inconclusive';
}

/**
 * nullHypothesisText(metric, access, tolerance) states the audit's null hypothesis H0, on
 * the quantity the access regime's test observes: "H0 |SP gap| ≤ 0.05" for decisions,
 * "H0 |SP gap of mean scores| ≤ 0.05" for scores (the proxy gap), likewise for logits. O(1).
 * @param metric sp or eo
 * @param access the access regime
 * @param tolerance the tolerance the test uses (toleranceOfAccess)
 * @returns the hypothesis in words
 * @example nullHypothesisText('sp', 'decision', 0.05) // 'H0 |SP gap| ≤ 0.05'
 */
export function nullHypothesisText(metric: FairnessMetric, access: AccessRegime, tolerance: number): string {
  const name = metric.toUpperCase();
  const gap = access === 'decision' ? `${name} gap` : `${name} gap of mean ${access}s`;
  return `H0 |${gap}| ≤ ${tolerance}`;
}

/** What a guarantee rests on, for the calibrated GLR: the certificate's Monte Carlo confidence. */
export interface GuaranteeContext {
  readonly alpha: number;
  readonly beta: number;
  /** calibrated-glr: the Monte Carlo confidence of the calibration's certificate. */
  readonly confidence?: number;
}

/**
 * guaranteeText(test, context) states the guarantee behind a test's verdicts, or that
 * there is none: the betting and confidence-sequence tests bound both errors at any
 * stopping time; the calibrated GLR bounds them for the calibrated setting (a Monte Carlo
 * certificate); paper A's wald-glr and hand-given thresholds bound nothing (wald-glr's measured
 * false-violation rate is above alpha: docs/error-control.md). O(1).
 * @param test the test that ran
 * @param context alpha, beta and the calibration's confidence
 * @returns the guarantee in words, starting with the test's name
 * @example guaranteeText('betting', { alpha: 0.05, beta: 0.2 })
 *   // 'betting: P(false violation) ≤ 0.05 and P(false compliance) ≤ 0.2 at any stopping time'
 */
export function guaranteeText(test: TestName, context: GuaranteeContext): string {
  const errors = `P(false violation) ≤ ${context.alpha} and P(false compliance) ≤ ${context.beta}`;
  switch (test) {
    case 'betting':
    case 'confidence-sequence':
      return `${test}: ${errors} at any stopping time`;
    case 'calibrated-glr':
      return (
        `calibrated-glr: ${errors} for this setting's group sizes, budget and order, certified by Monte ` +
        `Carlo at ${context.confidence ?? 0.95} confidence`
      );
    case 'wald-glr':
      return (
        "wald-glr: no error guarantee; paper A's Wald thresholds do not control the false-violation rate " +
        '(measured above alpha in docs/error-control.md)'
      );
    case 'given-thresholds':
      return (
        'given-thresholds: no error guarantee; thresholds given by hand bound nothing for this setting ' +
        '(fairaudit calibrate, then --test calibrated-glr)'
      );
  }
}

/**
 * verdictText(verdict, hypothesis, queries, guarantee) is the verdict in a sentence:
 * "VIOLATION: H0 |SP gap| ≤ 0.05 rejected after 496 queries (betting: …)". O(1).
 * @param verdict the verdict
 * @param hypothesis nullHypothesisText
 * @param queries the queries the audit made
 * @param guarantee guaranteeText
 * @returns the sentence
 * @example verdictText('compliant', 'H0 |SP gap| ≤ 0.05', 812, 'betting: …')
 *   // 'COMPLIANT: H0 |SP gap| ≤ 0.05 accepted after 812 queries (betting: …)'
 */
export function verdictText(verdict: Verdict, hypothesis: string, queries: number, guarantee: string): string {
  const after = `${queries} ${queries === 1 ? 'query' : 'queries'}`;
  switch (verdict) {
    case 'violation':
      return `VIOLATION: ${hypothesis} rejected after ${after} (${guarantee})`;
    case 'compliant':
      return `COMPLIANT: ${hypothesis} accepted after ${after} (${guarantee})`;
    case 'inconclusive':
      return (
        `INCONCLUSIVE: ${hypothesis} neither rejected nor accepted within ${after}; the audit makes no ` +
        `claim (${guarantee})`
      );
  }
}
