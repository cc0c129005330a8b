import type { Random } from '../util/random.js';
import { restoreOrder, shufflePosition } from './partial-shuffle.js';

/**
 * The balanced query order: the auditor knows each pool row's group, so it alternates the
 * groups, a first (a, b, a, b, ...), and once one group is exhausted continues with the
 * other; within each group the rows come in a uniformly random order (a partial
 * Fisher-Yates shuffle of that group's rows, one draw of `random` per query). Each group's
 * sequence is then a uniform sample without replacement, independent of the other group's
 * (what the betting test and the confidence sequences need), and the interleaving is fixed.
 *
 * Built once per pool (O(pool size)); next() is O(1); restore() puts the scratch back in
 * O(queries) so the next replicate's order depends only on its own generator. One
 * replicate at a time (not shared between threads).
 */
export class BalancedOrder {
  private readonly rows: [Int32Array, Int32Array];
  private readonly swaps: [Int32Array, Int32Array];
  private readonly taken = [0, 0];
  private turn = 0;

  constructor(group: Uint8Array) {
    let countB = 0;
    for (let row = 0; row < group.length; row++) countB += group[row];
    const rowsA = new Int32Array(group.length - countB);
    const rowsB = new Int32Array(countB);
    let a = 0;
    let b = 0;
    for (let row = 0; row < group.length; row++) {
      if (group[row] === 0) rowsA[a++] = row;
      else rowsB[b++] = row;
    }
    this.rows = [rowsA, rowsB];
    this.swaps = [new Int32Array(rowsA.length), new Int32Array(rowsB.length)];
  }

  /** Rows still to come. */
  get remaining(): number {
    return this.rows[0].length - this.taken[0] + this.rows[1].length - this.taken[1];
  }

  /**
   * next(random) returns the next row: from the group whose turn it is, or from the other
   * when that one is exhausted. Kernel: call at most pool-size times between restores.
   */
  next(random: Random): number {
    let group = this.turn;
    if (this.taken[group] === this.rows[group].length) group = 1 - group;
    this.turn = 1 - group;
    const position = this.taken[group]++;
    return shufflePosition(this.rows[group], this.swaps[group], position, random);
  }

  /** Undoes the shuffles of this replicate and starts the next one at group a. */
  restore(): void {
    for (const group of [0, 1]) restoreOrder(this.rows[group], this.swaps[group], this.taken[group]);
    this.taken[0] = 0;
    this.taken[1] = 0;
    this.turn = 0;
  }
}
