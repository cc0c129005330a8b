/**
 * The WebAssembly text (WAT) of fairaudit's PIR kernels, generated here so that the
 * unrolled loops stay readable. `npm run build` assembles it with the `wabt` package
 * into dist/src/pir/wasm/kernels.wasm (scripts/build-wasm.mjs); under vitest the
 * loader assembles it on the fly. All arithmetic is modulo 2^32 (i32 wrap-around).
 *
 * Exports (pointers are byte offsets into the imported memory `env.memory`):
 * - answer(d, rows, columns, limbs, queries, out): out[q][r] = Σ_c d[r][c]·query_q[c]
 *   for a database of one byte per element (rows % 4 == 0, columns % 16 == 0) and
 *   queries given as 16-bit limbs (see `splitQueryLimbs`). The hot loop: per 16
 *   bytes of D it widens to i16 and uses i32x4.dot_i16x8_s (pmaddwd) against the low
 *   and high limbs, four rows at a time so each query load serves four rows.
 * - ceiling(d, rows, columns, out): the same loads, widenings and multiply-adds with
 *   constant query registers: the bare multiply-add loop that bounds `answer`.
 * - matmulBytes(left, leftStride, rows, inner, right, columns, out): out = left·right
 *   with left one byte per element and right u32 (rows % 2 == 0, columns % 16 == 0).
 * - matmulWords(left, rows, inner, right, columns, out): the same with a u32 left.
 * - matvecWords(m, rows, inner, x, out): out = m·x for u32 m (inner % 16 == 0).
 * - matmulPairs(left, rows, innerPairs, right, columns, out): out = left·right
 *   with i32x4.dot_i16x8_s on pairs of inner indices (the hint H = D·A): left
 *   holds D[i][2t] | D[i][2t+1] << 16 per word; right is cut in panels of 8
 *   columns, each panel holding per pair t 64 contiguous bytes: the low limbs of
 *   rows 2t, 2t+1 of A interleaved column by column, then the high limbs (see
 *   `splitQueryLimbs`), so the inner loop streams one panel; rows % 2 == 0,
 *   columns % 8 == 0.
 */
export function kernelText(): string {
  return `(module
  (import "env" "memory" (memory 1))
${answerFunction()}
${ceilingFunction()}
${matmulFunction('matmulBytes', true)}
${matmulFunction('matmulWords', false)}
${matvecFunction()}
${pairedMatmulFunction()}
)`;
}

const ROWS_PER_BLOCK = 4;

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

/** Adds the four i32 lanes of a v128 expression (leaves an i32 on the stack). */
function horizontalSum(local: string): string {
  return `(i32.add (i32.add (i32x4.extract_lane 0 (local.get ${local})) (i32x4.extract_lane 1 (local.get ${local})))
              (i32.add (i32x4.extract_lane 2 (local.get ${local})) (i32x4.extract_lane 3 (local.get ${local}))))`;
}

/**
 * One step of the answer loop for four rows: load 16 bytes of each row at $c, widen
 * them to i16 and add their pmaddwd with the low-limb registers lowFirst, lowSecond
 * into $lowR and with the high-limb registers highFirst, highSecond into $highR.
 * Shared by `answer` (the query's limbs) and `ceiling` (constant registers).
 */
function rowMultiplyAdds(
  rows: number[],
  lowFirst: string,
  lowSecond: string,
  highFirst: string,
  highSecond: string,
): string {
  return rows
    .map(
      (r) => `
          (local.set $bytes (v128.load (i32.add (local.get $row${r}) (local.get $c))))
          (local.set $wideLow (i16x8.extend_low_i8x16_u (local.get $bytes)))
          (local.set $wideHigh (i16x8.extend_high_i8x16_u (local.get $bytes)))
          (local.set $low${r} (i32x4.add (local.get $low${r})
            (i32x4.add (i32x4.dot_i16x8_s (local.get $wideLow) (local.get ${lowFirst}))
                       (i32x4.dot_i16x8_s (local.get $wideHigh) (local.get ${lowSecond})))))
          (local.set $high${r} (i32x4.add (local.get $high${r})
            (i32x4.add (i32x4.dot_i16x8_s (local.get $wideLow) (local.get ${highFirst}))
                       (i32x4.dot_i16x8_s (local.get $wideHigh) (local.get ${highSecond})))))`,
    )
    .join('');
}

function answerFunction(): string {
  const rows = range(ROWS_PER_BLOCK);
  const accumulators = rows.map((r) => `(local $low${r} v128) (local $high${r} v128)`).join(' ');
  const body = rowMultiplyAdds(rows, '$qLow0', '$qLow1', '$qHigh0', '$qHigh1');
  const stores = rows
    .map(
      (r) => `
        (local.set $low${r} (i32x4.add (local.get $low${r}) (i32x4.shl (local.get $high${r}) (i32.const 16))))
        (i32.store offset=${4 * r} (local.get $outRow) ${horizontalSum(`$low${r}`)})`,
    )
    .join('');
  const zero = rows
    .map(
      (r) => `
        (local.set $low${r} (v128.const i32x4 0 0 0 0)) (local.set $high${r} (v128.const i32x4 0 0 0 0))`,
    )
    .join('');
  const rowPointers = rows
    .map(
      (r) =>
        `(local.set $row${r} (i32.add (local.get $d) (i32.mul (i32.add (local.get $rowBase) (i32.const ${r})) (local.get $columns))))`,
    )
    .join('\n      ');
  return `  (func (export "answer") (param $d i32) (param $rows i32) (param $columns i32) (param $limbs i32) (param $queries i32) (param $out i32)
    (local $rowBase i32) (local $query i32) (local $c i32) (local $lowPtr i32) (local $highPtr i32) (local $outRow i32)
    ${rows.map((r) => `(local $row${r} i32)`).join(' ')}
    (local $bytes v128) (local $wideLow v128) (local $wideHigh v128)
    (local $qLow0 v128) (local $qLow1 v128) (local $qHigh0 v128) (local $qHigh1 v128)
    ${accumulators}
    (block $rowsDone (loop $rowLoop
      (br_if $rowsDone (i32.ge_u (local.get $rowBase) (local.get $rows)))
      ${rowPointers}
      (local.set $query (i32.const 0))
      (block $queriesDone (loop $queryLoop
        (br_if $queriesDone (i32.ge_u (local.get $query) (local.get $queries)))
        (local.set $lowPtr (i32.add (local.get $limbs) (i32.mul (local.get $query) (i32.shl (local.get $columns) (i32.const 2)))))
        (local.set $highPtr (i32.add (local.get $lowPtr) (i32.shl (local.get $columns) (i32.const 1))))
        ${zero}
        (local.set $c (i32.const 0))
        (block $columnsDone (loop $columnLoop
          (br_if $columnsDone (i32.ge_u (local.get $c) (local.get $columns)))
          (local.set $qLow0 (v128.load (local.get $lowPtr)))
          (local.set $qLow1 (v128.load offset=16 (local.get $lowPtr)))
          (local.set $qHigh0 (v128.load (local.get $highPtr)))
          (local.set $qHigh1 (v128.load offset=16 (local.get $highPtr)))${body}
          (local.set $lowPtr (i32.add (local.get $lowPtr) (i32.const 32)))
          (local.set $highPtr (i32.add (local.get $highPtr) (i32.const 32)))
          (local.set $c (i32.add (local.get $c) (i32.const 16)))
          (br $columnLoop)))
        (local.set $outRow (i32.add (local.get $out)
          (i32.shl (i32.add (i32.mul (local.get $query) (local.get $rows)) (local.get $rowBase)) (i32.const 2))))${stores}
        (local.set $query (i32.add (local.get $query) (i32.const 1)))
        (br $queryLoop)))
      (local.set $rowBase (i32.add (local.get $rowBase) (i32.const ${ROWS_PER_BLOCK})))
      (br $rowLoop)))
  )`;
}

function ceilingFunction(): string {
  const rows = range(ROWS_PER_BLOCK);
  const body = rowMultiplyAdds(rows, '$k0', '$k1', '$k2', '$k3');
  return `  (func (export "ceiling") (param $d i32) (param $rows i32) (param $columns i32) (param $out i32)
    (local $rowBase i32) (local $c i32)
    ${rows.map((r) => `(local $row${r} i32) (local $low${r} v128) (local $high${r} v128)`).join(' ')}
    (local $bytes v128) (local $wideLow v128) (local $wideHigh v128)
    (local $k0 v128) (local $k1 v128) (local $k2 v128) (local $k3 v128)
    (local.set $k0 (v128.const i16x8 1 2 3 4 5 6 7 8))
    (local.set $k1 (v128.const i16x8 9 10 11 12 13 14 15 16))
    (local.set $k2 (v128.const i16x8 -1 -2 -3 -4 -5 -6 -7 -8))
    (local.set $k3 (v128.const i16x8 -9 -10 -11 -12 -13 -14 -15 -16))
    (block $rowsDone (loop $rowLoop
      (br_if $rowsDone (i32.ge_u (local.get $rowBase) (local.get $rows)))
      ${rows
        .map(
          (r) =>
            `(local.set $row${r} (i32.add (local.get $d) (i32.mul (i32.add (local.get $rowBase) (i32.const ${r})) (local.get $columns))))`,
        )
        .join('\n      ')}
      ${rows.map((r) => `(local.set $low${r} (v128.const i32x4 0 0 0 0)) (local.set $high${r} (v128.const i32x4 0 0 0 0))`).join('\n      ')}
      (local.set $c (i32.const 0))
      (block $columnsDone (loop $columnLoop
        (br_if $columnsDone (i32.ge_u (local.get $c) (local.get $columns)))${body}
        (local.set $c (i32.add (local.get $c) (i32.const 16)))
        (br $columnLoop)))
      ${rows
        .map(
          (r) =>
            `(local.set $low${r} (i32x4.add (local.get $low${r}) (local.get $high${r})))
      (i32.store (i32.add (local.get $out) (i32.shl (i32.add (local.get $rowBase) (i32.const ${r})) (i32.const 2)))
        ${horizontalSum(`$low${r}`)})`,
        )
        .join('\n      ')}
      (local.set $rowBase (i32.add (local.get $rowBase) (i32.const ${ROWS_PER_BLOCK})))
      (br $rowLoop)))
  )`;
}

/**
 * out[i][k] = Σ_j left[i][j]·right[j][k], two rows of left by sixteen columns of
 * right per block (eight i32x4 accumulators). Left is bytes (stride leftStride) or
 * u32 words (stride inner); right is u32, row-major with `columns` per row.
 */
function matmulFunction(name: string, leftBytes: boolean): string {
  const load = leftBytes ? 'i32.load8_u' : 'i32.load';
  const leftStep = leftBytes ? 1 : 4;
  const strideParam = leftBytes ? '(param $leftStride i32) ' : '';
  const strideBytes = leftBytes ? '(local.get $leftStride)' : '(i32.shl (local.get $inner) (i32.const 2))';
  const lanes = range(4);
  const accumulate = lanes
    .map(
      (v) => `
          (local.set $b (v128.load offset=${16 * v} (local.get $pr)))
          (local.set $a0${v} (i32x4.add (local.get $a0${v}) (i32x4.mul (local.get $s0) (local.get $b))))
          (local.set $a1${v} (i32x4.add (local.get $a1${v}) (i32x4.mul (local.get $s1) (local.get $b))))`,
    )
    .join('');
  const stores = lanes
    .map(
      (v) => `
        (v128.store offset=${16 * v} (local.get $po0) (local.get $a0${v}))
        (v128.store offset=${16 * v} (local.get $po1) (local.get $a1${v}))`,
    )
    .join('');
  return `  (func (export "${name}") (param $left i32) ${strideParam}(param $rows i32) (param $inner i32) (param $right i32) (param $columns i32) (param $out i32)
    (local $k i32) (local $i i32) (local $j i32) (local $pl0 i32) (local $pl1 i32) (local $pr i32) (local $po0 i32) (local $po1 i32)
    (local $rightStride i32) (local $s0 v128) (local $s1 v128) (local $b v128)
    ${lanes.map((v) => `(local $a0${v} v128) (local $a1${v} v128)`).join(' ')}
    (local.set $rightStride (i32.shl (local.get $columns) (i32.const 2)))
    (block $kDone (loop $kLoop
      (br_if $kDone (i32.ge_u (local.get $k) (local.get $columns)))
      (local.set $i (i32.const 0))
      (block $iDone (loop $iLoop
        (br_if $iDone (i32.ge_u (local.get $i) (local.get $rows)))
        ${lanes.map((v) => `(local.set $a0${v} (v128.const i32x4 0 0 0 0)) (local.set $a1${v} (v128.const i32x4 0 0 0 0))`).join('\n        ')}
        (local.set $pl0 (i32.add (local.get $left) (i32.mul (local.get $i) ${strideBytes})))
        (local.set $pl1 (i32.add (local.get $pl0) ${strideBytes}))
        (local.set $pr (i32.add (local.get $right) (i32.shl (local.get $k) (i32.const 2))))
        (local.set $j (i32.const 0))
        (block $jDone (loop $jLoop
          (br_if $jDone (i32.ge_u (local.get $j) (local.get $inner)))
          (local.set $s0 (i32x4.splat (${load} (local.get $pl0))))
          (local.set $s1 (i32x4.splat (${load} (local.get $pl1))))${accumulate}
          (local.set $pl0 (i32.add (local.get $pl0) (i32.const ${leftStep})))
          (local.set $pl1 (i32.add (local.get $pl1) (i32.const ${leftStep})))
          (local.set $pr (i32.add (local.get $pr) (local.get $rightStride)))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br $jLoop)))
        (local.set $po0 (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $columns)) (local.get $k)) (i32.const 2))))
        (local.set $po1 (i32.add (local.get $po0) (local.get $rightStride)))${stores}
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $iLoop)))
      (local.set $k (i32.add (local.get $k) (i32.const 16)))
      (br $kLoop)))
  )`;
}

function matvecFunction(): string {
  const lanes = range(4);
  return `  (func (export "matvecWords") (param $m i32) (param $rows i32) (param $inner i32) (param $x i32) (param $out i32)
    (local $i i32) (local $j i32) (local $pm i32) (local $px i32)
    ${lanes.map((v) => `(local $a${v} v128)`).join(' ')}
    (local.set $pm (local.get $m))
    (block $iDone (loop $iLoop
      (br_if $iDone (i32.ge_u (local.get $i) (local.get $rows)))
      ${lanes.map((v) => `(local.set $a${v} (v128.const i32x4 0 0 0 0))`).join(' ')}
      (local.set $px (local.get $x))
      (local.set $j (i32.const 0))
      (block $jDone (loop $jLoop
        (br_if $jDone (i32.ge_u (local.get $j) (local.get $inner)))
        ${lanes
          .map(
            (v) =>
              `(local.set $a${v} (i32x4.add (local.get $a${v}) (i32x4.mul (v128.load offset=${16 * v} (local.get $pm)) (v128.load offset=${16 * v} (local.get $px)))))`,
          )
          .join('\n        ')}
        (local.set $pm (i32.add (local.get $pm) (i32.const 64)))
        (local.set $px (i32.add (local.get $px) (i32.const 64)))
        (local.set $j (i32.add (local.get $j) (i32.const 16)))
        (br $jLoop)))
      (local.set $a0 (i32x4.add (i32x4.add (local.get $a0) (local.get $a1)) (i32x4.add (local.get $a2) (local.get $a3))))
      (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2))) ${horizontalSum('$a0')})
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $iLoop)))
  )`;
}

function pairedMatmulFunction(): string {
  const vectors = range(2);
  const rowsInBlock = range(2);
  const accumulate = vectors
    .map(
      (v) => `
          (local.set $lo (v128.load offset=${16 * v} (local.get $pr)))
          (local.set $hi (v128.load offset=${32 + 16 * v} (local.get $pr)))${rowsInBlock
            .map(
              (r) => `
          (local.set $low${r}${v} (i32x4.add (local.get $low${r}${v}) (i32x4.dot_i16x8_s (local.get $s${r}) (local.get $lo))))
          (local.set $high${r}${v} (i32x4.add (local.get $high${r}${v}) (i32x4.dot_i16x8_s (local.get $s${r}) (local.get $hi))))`,
            )
            .join('')}`,
    )
    .join('');
  const stores = rowsInBlock
    .map((r) =>
      vectors
        .map(
          (v) => `
        (v128.store offset=${16 * v} (local.get $po${r})
          (i32x4.add (local.get $low${r}${v}) (i32x4.shl (local.get $high${r}${v}) (i32.const 16))))`,
        )
        .join(''),
    )
    .join('');
  return `  (func (export "matmulPairs") (param $left i32) (param $rows i32) (param $innerPairs i32) (param $right i32) (param $columns i32) (param $out i32)
    (local $k i32) (local $i i32) (local $t i32) (local $pl0 i32) (local $pl1 i32) (local $pr i32) (local $po0 i32) (local $po1 i32)
    (local $halfRow i32) (local $leftRow i32) (local $s0 v128) (local $s1 v128) (local $lo v128) (local $hi v128)
    ${rowsInBlock.map((r) => vectors.map((v) => `(local $low${r}${v} v128) (local $high${r}${v} v128)`).join(' ')).join(' ')}
    (local.set $halfRow (i32.shl (local.get $columns) (i32.const 2)))
    (local.set $leftRow (i32.shl (local.get $innerPairs) (i32.const 2)))
    (block $kDone (loop $kLoop
      (br_if $kDone (i32.ge_u (local.get $k) (local.get $columns)))
      (local.set $i (i32.const 0))
      (block $iDone (loop $iLoop
        (br_if $iDone (i32.ge_u (local.get $i) (local.get $rows)))
        ${rowsInBlock.map((r) => vectors.map((v) => `(local.set $low${r}${v} (v128.const i32x4 0 0 0 0)) (local.set $high${r}${v} (v128.const i32x4 0 0 0 0))`).join(' ')).join('\n        ')}
        (local.set $pl0 (i32.add (local.get $left) (i32.mul (local.get $i) (local.get $leftRow))))
        (local.set $pl1 (i32.add (local.get $pl0) (local.get $leftRow)))
        (local.set $pr (i32.add (local.get $right) (i32.mul (local.get $k) (i32.shl (local.get $innerPairs) (i32.const 3)))))
        (local.set $t (i32.const 0))
        (block $tDone (loop $tLoop
          (br_if $tDone (i32.ge_u (local.get $t) (local.get $innerPairs)))
          (local.set $s0 (v128.load32_splat (local.get $pl0)))
          (local.set $s1 (v128.load32_splat (local.get $pl1)))${accumulate}
          (local.set $pl0 (i32.add (local.get $pl0) (i32.const 4)))
          (local.set $pl1 (i32.add (local.get $pl1) (i32.const 4)))
          (local.set $pr (i32.add (local.get $pr) (i32.const 64)))
          (local.set $t (i32.add (local.get $t) (i32.const 1)))
          (br $tLoop)))
        (local.set $po0 (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $columns)) (local.get $k)) (i32.const 2))))
        (local.set $po1 (i32.add (local.get $po0) (local.get $halfRow)))${stores}
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $iLoop)))
      (local.set $k (i32.add (local.get $k) (i32.const 8)))
      (br $kLoop)))
  )`;
}
