import type { ChartSpec } from '../../src/report/charts/chart-spec.js';
import { hoeffdingMargin } from '../../src/respir/concentration-margin.js';
import { detectionProbability } from '../../src/respir/detection-probability.js';
import { flipsToLowerGap } from '../../src/respir/flip-count.js';
import { auditColor, linePanelsSpec } from './line-panels.js';

/** Paper B Figure 1's setting (caption of Figure 1). */
export interface Figure1Options {
  auditSetSize: number;
  candidateSetSize: number;
  passProbability: number;
  canaryEffectiveness: number;
  canaryCounts: readonly number[];
  /** Minority shares of S (and of C) compared: 0.1 (unbalanced) and 0.5 (balanced). */
  minorityShares: readonly number[];
  /** Excess gaps |d| − ε on the horizontal axis. */
  excessGaps: readonly number[];
}

/** |S| = 400, |C| = 2000, 1 − δ = 0.95, q = 0.8, k ∈ {1, 3, 5}, 10% and 50%, excess 0 to 0.1. */
export const paperBFigure1Options: Figure1Options = {
  auditSetSize: 400,
  candidateSetSize: 2000,
  passProbability: 0.95,
  canaryEffectiveness: 0.8,
  canaryCounts: [1, 3, 5],
  minorityShares: [0.1, 0.5],
  excessGaps: Array.from({ length: 101 }, (_, i) => i / 1000),
};

/** A point of Figure 1(a): flips for one regime, audit and excess gap. */
export interface Figure1FlipPoint {
  regime: string;
  minority_share: number;
  audit: 'vanilla' | 'respir';
  excess_gap: number;
  flips: number;
}

/** A point of Figure 1(b): detection probability for one regime, audit, excess gap and k. */
export interface Figure1DetectionPoint extends Figure1FlipPoint {
  canaries: number;
  detection: number;
}

function regimeName(share: number): string {
  return share === 0.5 ? 'balanced (50%)' : `unbalanced (${Math.round(share * 100)}%)`;
}

/**
 * figure1Series(options) computes the data behind paper B Figure 1: for each minority
 * share and excess gap x = |d| − ε, the vanilla flips ⌈x·n_min⌉ (Proposition 1) and
 * the respir flips ⌈(x + γ)·N_min⌉ (Theorem 1, γ = sqrt(2 ln(4/δ)/n_min); the figure
 * assumes ε ≥ γ, so no best-effort cap), with n_min = share·|S| and N_min = share·|C|;
 * and Eq. 3's detection probability over |S| and |C| for each k. O(shares × gaps × k).
 */
export function figure1Series(options: Figure1Options = paperBFigure1Options): {
  flips: Figure1FlipPoint[];
  detection: Figure1DetectionPoint[];
} {
  const flips: Figure1FlipPoint[] = [];
  const detection: Figure1DetectionPoint[] = [];
  for (const share of options.minorityShares) {
    const auditMinority = Math.round(share * options.auditSetSize);
    const candidateMinority = Math.round(share * options.candidateSetSize);
    const margin = hoeffdingMargin(1 - options.passProbability, auditMinority);
    for (const excess of options.excessGaps) {
      const counts = {
        vanilla: flipsToLowerGap(excess, 0, auditMinority),
        respir: flipsToLowerGap(excess, -margin, candidateMinority),
      };
      const denominators = { vanilla: options.auditSetSize, respir: options.candidateSetSize };
      for (const audit of ['vanilla', 'respir'] as const) {
        const point = {
          regime: regimeName(share),
          minority_share: share,
          audit,
          excess_gap: excess,
          flips: counts[audit],
        };
        flips.push(point);
        for (const k of options.canaryCounts) {
          const probability = detectionProbability(counts[audit], denominators[audit], options.canaryEffectiveness, k);
          detection.push({ ...point, canaries: k, detection: probability });
        }
      }
    }
  }
  return { flips, detection };
}

/**
 * figure1Charts(series) returns Figure 1 as two Vega-Lite charts: (a) flips on a log
 * scale against the excess gap (zero flips are left out of the log axis), (b) the
 * detection probability, one line per audit and k; a panel per regime.
 */
export function figure1Charts(series: ReturnType<typeof figure1Series>): ChartSpec[] {
  const facet = {
    column: { field: 'regime', type: 'nominal', title: null, sort: { field: 'minority_share', order: 'ascending' } },
  };
  const x = { field: 'excess_gap', type: 'quantitative', title: 'Excess gap |d| − ε' };
  return [
    {
      id: 'paper-b-figure-1a',
      title: 'Figure 1(a). Flips needed to hide unfairness: vanilla vs respir',
      caption:
        '|S| = 400, |C| = 2000, 1 − δ = 0.95. Vanilla: Proposition 1; respir: Theorem 1. Log scale; zero flips ' +
        'not drawn.',
      spec: linePanelsSpec({
        values: series.flips.filter((point) => point.flips > 0),
        facet,
        width: 260,
        height: 200,
        x,
        y: { field: 'flips', type: 'quantitative', scale: { type: 'log' }, title: 'Output flips m' },
        color: auditColor,
      }),
    },
    {
      id: 'paper-b-figure-1b',
      title: 'Figure 1(b). Probability that canaries detect the manipulation',
      caption: 'q = 0.8, k ∈ {1, 3, 5} canaries; Eq. 3 over |S| (vanilla) and |C| (respir).',
      spec: linePanelsSpec({
        values: series.detection,
        facet,
        width: 260,
        height: 200,
        x,
        y: { field: 'detection', type: 'quantitative', title: 'P(manipulation detected)', scale: { domain: [0, 1] } },
        color: auditColor,
        strokeDash: { field: 'canaries', type: 'ordinal', title: 'Canaries k' },
      }),
    },
  ];
}
