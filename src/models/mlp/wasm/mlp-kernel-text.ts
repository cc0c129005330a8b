/**
 * The WebAssembly text (WAT) of the MLP training kernels, generated here so that the
 * unrolled loops stay readable. `npm run build` assembles it with the `wabt` package
 * into dist/src/models/mlp/wasm/mlp-kernels.wasm (scripts/build-wasm.mjs); under
 * vitest prepareMlpKernels() assembles it on the fly.
 *
 * Every function computes exactly what the JavaScript kernel (../minibatch-kernel.ts,
 * ../adam.ts) computes, operation for operation: each output sum starts from the same
 * value and adds the same products in the same order, and f64x2 lanes are separate
 * output units (IEEE double arithmetic per lane, no fused multiply-add), so the
 * results are bit for bit the JavaScript ones (test/models/mlp/wasm/wasm-stepper.test.ts).
 * What is faster: two units per instruction, running sums kept in registers for
 * blocks of eight units, and no bounds checks.
 *
 * Exports (pointers are byte offsets into the imported memory `env.memory`; matrices
 * are row-major float64, index lists int32):
 * - forwardSparse(rowStart, column, value, order, start, batch, weights, bias, outSize, out):
 *   for r < batch, with row = order[start + r] and the row's nonzeros k of the CSR
 *   input: out[r][j] = bias[j] + Σ_k value[k] · weights[column[k]][j] (k ascending).
 * - forwardDense(input, inSize, batch, weights, bias, outSize, out, indexScratch, valueScratch):
 *   out[r][j] = bias[j] + Σ_{i: input[r][i] ≠ 0} input[r][i] · weights[i][j] (i ascending).
 * - backwardBias(delta, batch, outSize, gradient): gradient[j] += Σ_r delta[r][j] (r ascending).
 * - backwardSparseWeights(rowStart, column, value, order, start, batch, delta, outSize, gradient):
 *   gradient[column[k]][j] += value[k] · delta[r][j], row by row.
 * - backwardDenseWeights(input, inSize, batch, delta, outSize, gradient, indexScratch, valueScratch):
 *   gradient[i][j] += Σ_{r: input[r][i] ≠ 0} input[r][i] · delta[r][j] (r ascending).
 * - backwardDenseDeltas(input, inSize, batch, delta, outSize, weights, previousDelta, keepScale, transposed):
 *   previousDelta[r][i] = 0 where input[r][i] = 0, else keepScale · Σ_j weights[i][j] · delta[r][j],
 *   summed as the JavaScript kernel does: sum += ((w0 d0 + w1 d1) + w2 d2) + w3 d3 per four;
 *   `transposed` is scratch for inSize × outSize doubles (the weights, transposed).
 * - adam(parameters, gradient, first, second, count, rate, beta1, beta2, oneMinusBeta1,
 *   oneMinusBeta2, firstCorrection, secondCorrection, epsilon): adamStep's update.
 */
export function mlpKernelText(): string {
  return `(module
  (import "env" "memory" (memory 1))
${rowTimesFunction()}
${forwardSparseFunction()}
${forwardDenseFunction()}
${backwardBiasFunction()}
${backwardSparseWeightsFunction()}
${backwardDenseWeightsFunction()}
${backwardDenseDeltasFunction()}
${adamFunction()}
)`;
}

const BLOCK_PAIRS = 4;

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

/**
 * $rowTimes(index, value, count, weights, start, outSize, out): for every unit j < outSize,
 * out[j] = start[j] + Σ_{m < count} value[m] · weights[index[m]][j], adding the products
 * in m order (start may equal out). Units go in blocks of eight (four f64x2 registers),
 * then pairs, then one.
 */
function rowTimesFunction(): string {
  const pairs = range(BLOCK_PAIRS);
  const accumulators = pairs.map((q) => `(local $acc${q} v128)`).join(' ');
  const load = pairs
    .map((q) => `(local.set $acc${q} (v128.load offset=${16 * q} (local.get $from)))`)
    .join('\n        ');
  const update = pairs
    .map(
      (q) =>
        `(local.set $acc${q} (f64x2.add (local.get $acc${q}) (f64x2.mul (local.get $a) (v128.load offset=${16 * q} (local.get $row)))))`,
    )
    .join('\n            ');
  const store = pairs
    .map((q) => `(v128.store offset=${16 * q} (local.get $to) (local.get $acc${q}))`)
    .join('\n        ');
  return `
  (func $rowTimes (param $index i32) (param $value i32) (param $count i32) (param $weights i32)
                  (param $start i32) (param $outSize i32) (param $out i32)
    (local $j i32) (local $m i32) (local $stride i32) (local $from i32) (local $to i32) (local $row i32)
    (local $a v128) ${accumulators} (local $acc v128) (local $s f64)
    (local.set $stride (i32.shl (local.get $outSize) (i32.const 3)))
    ;; blocks of ${2 * BLOCK_PAIRS} units
    (block $doneBlocks
      (loop $blocks
        (br_if $doneBlocks (i32.gt_u (i32.add (local.get $j) (i32.const ${2 * BLOCK_PAIRS})) (local.get $outSize)))
        (local.set $from (i32.add (local.get $start) (i32.shl (local.get $j) (i32.const 3))))
        (local.set $to (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3))))
        ${load}
        (local.set $m (i32.const 0))
        (block $doneTerms
          (loop $terms
            (br_if $doneTerms (i32.ge_u (local.get $m) (local.get $count)))
            (local.set $a (f64x2.splat (f64.load (i32.add (local.get $value) (i32.shl (local.get $m) (i32.const 3))))))
            (local.set $row (i32.add (i32.add (local.get $weights)
              (i32.mul (i32.load (i32.add (local.get $index) (i32.shl (local.get $m) (i32.const 2)))) (local.get $stride)))
              (i32.shl (local.get $j) (i32.const 3))))
            ${update}
            (local.set $m (i32.add (local.get $m) (i32.const 1)))
            (br $terms)))
        ${store}
        (local.set $j (i32.add (local.get $j) (i32.const ${2 * BLOCK_PAIRS})))
        (br $blocks)))
    ;; pairs
    (block $donePairs
      (loop $pairs
        (br_if $donePairs (i32.gt_u (i32.add (local.get $j) (i32.const 2)) (local.get $outSize)))
        (local.set $acc (v128.load (i32.add (local.get $start) (i32.shl (local.get $j) (i32.const 3)))))
        (local.set $m (i32.const 0))
        (block $doneTerms
          (loop $terms
            (br_if $doneTerms (i32.ge_u (local.get $m) (local.get $count)))
            (local.set $acc (f64x2.add (local.get $acc) (f64x2.mul
              (f64x2.splat (f64.load (i32.add (local.get $value) (i32.shl (local.get $m) (i32.const 3)))))
              (v128.load (i32.add (i32.add (local.get $weights)
                (i32.mul (i32.load (i32.add (local.get $index) (i32.shl (local.get $m) (i32.const 2)))) (local.get $stride)))
                (i32.shl (local.get $j) (i32.const 3)))))))
            (local.set $m (i32.add (local.get $m) (i32.const 1)))
            (br $terms)))
        (v128.store (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3))) (local.get $acc))
        (local.set $j (i32.add (local.get $j) (i32.const 2)))
        (br $pairs)))
    ;; the last unit of an odd width
    (if (i32.lt_u (local.get $j) (local.get $outSize))
      (then
        (local.set $s (f64.load (i32.add (local.get $start) (i32.shl (local.get $j) (i32.const 3)))))
        (local.set $m (i32.const 0))
        (block $doneTerms
          (loop $terms
            (br_if $doneTerms (i32.ge_u (local.get $m) (local.get $count)))
            (local.set $s (f64.add (local.get $s) (f64.mul
              (f64.load (i32.add (local.get $value) (i32.shl (local.get $m) (i32.const 3))))
              (f64.load (i32.add (i32.add (local.get $weights)
                (i32.mul (i32.load (i32.add (local.get $index) (i32.shl (local.get $m) (i32.const 2)))) (local.get $stride)))
                (i32.shl (local.get $j) (i32.const 3)))))))
            (local.set $m (i32.add (local.get $m) (i32.const 1)))
            (br $terms)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3))) (local.get $s)))))`;
}

function forwardSparseFunction(): string {
  return `
  (func (export "forwardSparse") (param $rowStart i32) (param $column i32) (param $value i32) (param $order i32)
        (param $start i32) (param $batch i32) (param $weights i32) (param $bias i32) (param $outSize i32) (param $out i32)
    (local $r i32) (local $row i32) (local $first i32) (local $last i32)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $r) (local.get $batch)))
        (local.set $row (i32.load (i32.add (local.get $order) (i32.shl (i32.add (local.get $start) (local.get $r)) (i32.const 2)))))
        (local.set $first (i32.load (i32.add (local.get $rowStart) (i32.shl (local.get $row) (i32.const 2)))))
        (local.set $last (i32.load offset=4 (i32.add (local.get $rowStart) (i32.shl (local.get $row) (i32.const 2)))))
        (call $rowTimes
          (i32.add (local.get $column) (i32.shl (local.get $first) (i32.const 2)))
          (i32.add (local.get $value) (i32.shl (local.get $first) (i32.const 3)))
          (i32.sub (local.get $last) (local.get $first))
          (local.get $weights) (local.get $bias) (local.get $outSize)
          (i32.add (local.get $out) (i32.shl (i32.mul (local.get $r) (local.get $outSize)) (i32.const 3))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))`;
}

/**
 * Gathers the nonzero entries of one row of `input` into (indexScratch, valueScratch),
 * branch-free (each entry is written, the count only moves past nonzeros); leaves
 * their count in $count.
 */
function gatherNonzeros(rowBase: string, length: string, stepBytes: string): string {
  return `
        (local.set $count (i32.const 0))
        (local.set $i (i32.const 0))
        (block $doneGather
          (loop $gather
            (br_if $doneGather (i32.ge_u (local.get $i) ${length}))
            (local.set $x (f64.load (i32.add ${rowBase} (i32.mul (local.get $i) ${stepBytes}))))
            (i32.store (i32.add (local.get $indexScratch) (i32.shl (local.get $count) (i32.const 2))) (local.get $i))
            (f64.store (i32.add (local.get $valueScratch) (i32.shl (local.get $count) (i32.const 3))) (local.get $x))
            (local.set $count (i32.add (local.get $count) (f64.ne (local.get $x) (f64.const 0))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $gather)))`;
}

function forwardDenseFunction(): string {
  return `
  (func (export "forwardDense") (param $input i32) (param $inSize i32) (param $batch i32) (param $weights i32)
        (param $bias i32) (param $outSize i32) (param $out i32) (param $indexScratch i32) (param $valueScratch i32)
    (local $r i32) (local $i i32) (local $count i32) (local $x f64)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $r) (local.get $batch)))
        ${gatherNonzeros('(i32.add (local.get $input) (i32.shl (i32.mul (local.get $r) (local.get $inSize)) (i32.const 3)))', '(local.get $inSize)', '(i32.const 8)')}
        (call $rowTimes (local.get $indexScratch) (local.get $valueScratch) (local.get $count)
          (local.get $weights) (local.get $bias) (local.get $outSize)
          (i32.add (local.get $out) (i32.shl (i32.mul (local.get $r) (local.get $outSize)) (i32.const 3))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))`;
}

function backwardBiasFunction(): string {
  return `
  (func (export "backwardBias") (param $delta i32) (param $batch i32) (param $outSize i32) (param $gradient i32)
    (local $j i32) (local $r i32) (local $acc v128) (local $s f64) (local $stride i32)
    (local.set $stride (i32.shl (local.get $outSize) (i32.const 3)))
    (block $donePairs
      (loop $pairs
        (br_if $donePairs (i32.gt_u (i32.add (local.get $j) (i32.const 2)) (local.get $outSize)))
        (local.set $acc (v128.load (i32.add (local.get $gradient) (i32.shl (local.get $j) (i32.const 3)))))
        (local.set $r (i32.const 0))
        (block $doneRows
          (loop $rows
            (br_if $doneRows (i32.ge_u (local.get $r) (local.get $batch)))
            (local.set $acc (f64x2.add (local.get $acc)
              (v128.load (i32.add (i32.add (local.get $delta) (i32.mul (local.get $r) (local.get $stride))) (i32.shl (local.get $j) (i32.const 3))))))
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (br $rows)))
        (v128.store (i32.add (local.get $gradient) (i32.shl (local.get $j) (i32.const 3))) (local.get $acc))
        (local.set $j (i32.add (local.get $j) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_u (local.get $j) (local.get $outSize))
      (then
        (local.set $s (f64.load (i32.add (local.get $gradient) (i32.shl (local.get $j) (i32.const 3)))))
        (local.set $r (i32.const 0))
        (block $doneRows
          (loop $rows
            (br_if $doneRows (i32.ge_u (local.get $r) (local.get $batch)))
            (local.set $s (f64.add (local.get $s)
              (f64.load (i32.add (i32.add (local.get $delta) (i32.mul (local.get $r) (local.get $stride))) (i32.shl (local.get $j) (i32.const 3))))))
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (br $rows)))
        (f64.store (i32.add (local.get $gradient) (i32.shl (local.get $j) (i32.const 3))) (local.get $s)))))`;
}

function backwardSparseWeightsFunction(): string {
  return `
  (func (export "backwardSparseWeights") (param $rowStart i32) (param $column i32) (param $value i32) (param $order i32)
        (param $start i32) (param $batch i32) (param $delta i32) (param $outSize i32) (param $gradient i32)
    (local $r i32) (local $row i32) (local $k i32) (local $last i32) (local $j i32) (local $a v128) (local $x f64)
    (local $target i32) (local $source i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $outSize) (i32.const 3)))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $r) (local.get $batch)))
        (local.set $row (i32.load (i32.add (local.get $order) (i32.shl (i32.add (local.get $start) (local.get $r)) (i32.const 2)))))
        (local.set $k (i32.load (i32.add (local.get $rowStart) (i32.shl (local.get $row) (i32.const 2)))))
        (local.set $last (i32.load offset=4 (i32.add (local.get $rowStart) (i32.shl (local.get $row) (i32.const 2)))))
        (local.set $source (i32.add (local.get $delta) (i32.mul (local.get $r) (local.get $stride))))
        (block $doneTerms
          (loop $terms
            (br_if $doneTerms (i32.ge_u (local.get $k) (local.get $last)))
            (local.set $x (f64.load (i32.add (local.get $value) (i32.shl (local.get $k) (i32.const 3)))))
            (local.set $a (f64x2.splat (local.get $x)))
            (local.set $target (i32.add (local.get $gradient)
              (i32.mul (i32.load (i32.add (local.get $column) (i32.shl (local.get $k) (i32.const 2)))) (local.get $stride))))
            (local.set $j (i32.const 0))
            (block $donePairs
              (loop $pairs
                (br_if $donePairs (i32.gt_u (i32.add (local.get $j) (i32.const 2)) (local.get $outSize)))
                (v128.store (i32.add (local.get $target) (i32.shl (local.get $j) (i32.const 3)))
                  (f64x2.add (v128.load (i32.add (local.get $target) (i32.shl (local.get $j) (i32.const 3))))
                    (f64x2.mul (local.get $a) (v128.load (i32.add (local.get $source) (i32.shl (local.get $j) (i32.const 3)))))))
                (local.set $j (i32.add (local.get $j) (i32.const 2)))
                (br $pairs)))
            (if (i32.lt_u (local.get $j) (local.get $outSize))
              (then
                (f64.store (i32.add (local.get $target) (i32.shl (local.get $j) (i32.const 3)))
                  (f64.add (f64.load (i32.add (local.get $target) (i32.shl (local.get $j) (i32.const 3))))
                    (f64.mul (local.get $x) (f64.load (i32.add (local.get $source) (i32.shl (local.get $j) (i32.const 3)))))))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $terms)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))`;
}

function backwardDenseWeightsFunction(): string {
  return `
  (func (export "backwardDenseWeights") (param $input i32) (param $inSize i32) (param $batch i32) (param $delta i32)
        (param $outSize i32) (param $gradient i32) (param $indexScratch i32) (param $valueScratch i32)
    (local $i i32) (local $count i32) (local $x f64) (local $unit i32) (local $target i32)
    (block $done
      (loop $units
        (br_if $done (i32.ge_u (local.get $unit) (local.get $inSize)))
        ;; the rows r where input[r][unit] is nonzero ($i runs over rows here)
        ${gatherNonzeros('(i32.add (local.get $input) (i32.shl (local.get $unit) (i32.const 3)))', '(local.get $batch)', '(i32.shl (local.get $inSize) (i32.const 3))')}
        (if (i32.gt_u (local.get $count) (i32.const 0))
          (then
            (local.set $target (i32.add (local.get $gradient) (i32.shl (i32.mul (local.get $unit) (local.get $outSize)) (i32.const 3))))
            (call $rowTimes (local.get $indexScratch) (local.get $valueScratch) (local.get $count)
              (local.get $delta) (local.get $target) (local.get $outSize) (local.get $target))))
        (local.set $unit (i32.add (local.get $unit) (i32.const 1)))
        (br $units))))`;
}

function backwardDenseDeltasFunction(): string {
  // Two units i, i + 1 per f64x2 (their weights side by side in a transposed copy), each
  // lane summing over j exactly as the JavaScript kernel does for its unit.
  const term = (q: number) =>
    `(f64x2.mul (v128.load (i32.add (local.get $col) (i32.mul (local.get $colStride) (i32.const ${q}))))
                (f64x2.splat (f64.load offset=${8 * q} (i32.add (local.get $dRow) (i32.shl (local.get $j) (i32.const 3))))))`;
  return `
  (func (export "backwardDenseDeltas") (param $input i32) (param $inSize i32) (param $batch i32) (param $delta i32)
        (param $outSize i32) (param $weights i32) (param $previousDelta i32) (param $keepScale f64) (param $transposed i32)
    (local $r i32) (local $i i32) (local $j i32) (local $at i32) (local $wRow i32) (local $dRow i32) (local $col i32)
    (local $colStride i32) (local $sum f64) (local $v1 v128) (local $v2 v128) (local $pair v128) (local $result v128)
    ;; transposed[j][i] = weights[i][j]
    (block $doneCopy
      (loop $copy
        (br_if $doneCopy (i32.ge_u (local.get $i) (local.get $inSize)))
        (local.set $j (i32.const 0))
        (block $doneColumns
          (loop $columns
            (br_if $doneColumns (i32.ge_u (local.get $j) (local.get $outSize)))
            (f64.store (i32.add (local.get $transposed) (i32.shl (i32.add (i32.mul (local.get $j) (local.get $inSize)) (local.get $i)) (i32.const 3)))
              (f64.load (i32.add (local.get $weights) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $outSize)) (local.get $j)) (i32.const 3)))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $columns)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (local.set $colStride (i32.shl (local.get $inSize) (i32.const 3)))
    (block $doneRows
      (loop $rows
        (br_if $doneRows (i32.ge_u (local.get $r) (local.get $batch)))
        (local.set $dRow (i32.add (local.get $delta) (i32.shl (i32.mul (local.get $r) (local.get $outSize)) (i32.const 3))))
        (local.set $i (i32.const 0))
        (block $donePairs
          (loop $pairs
            (br_if $donePairs (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $inSize)))
            (local.set $pair (f64x2.splat (f64.const 0)))
            (local.set $j (i32.const 0))
            (block $doneFours
              (loop $fours
                (br_if $doneFours (i32.ge_u (i32.add (local.get $j) (i32.const 3)) (local.get $outSize)))
                (local.set $col (i32.add (local.get $transposed) (i32.shl (i32.add (i32.mul (local.get $j) (local.get $inSize)) (local.get $i)) (i32.const 3))))
                (local.set $pair (f64x2.add (local.get $pair) (f64x2.add (f64x2.add (f64x2.add ${term(0)} ${term(1)}) ${term(2)}) ${term(3)})))
                (local.set $j (i32.add (local.get $j) (i32.const 4)))
                (br $fours)))
            (block $doneOnes
              (loop $ones
                (br_if $doneOnes (i32.ge_u (local.get $j) (local.get $outSize)))
                (local.set $col (i32.add (local.get $transposed) (i32.shl (i32.add (i32.mul (local.get $j) (local.get $inSize)) (local.get $i)) (i32.const 3))))
                (local.set $pair (f64x2.add (local.get $pair) ${term(0)}))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $ones)))
            (local.set $at (i32.shl (i32.add (i32.mul (local.get $r) (local.get $inSize)) (local.get $i)) (i32.const 3)))
            (local.set $result (f64x2.mul (local.get $pair) (f64x2.splat (local.get $keepScale))))
            ;; 0 where the activation is 0 (the JavaScript kernel writes 0 there without summing)
            (v128.store (i32.add (local.get $previousDelta) (local.get $at))
              (v128.bitselect (f64x2.splat (f64.const 0)) (local.get $result)
                (f64x2.eq (v128.load (i32.add (local.get $input) (local.get $at))) (f64x2.splat (f64.const 0)))))
            (local.set $i (i32.add (local.get $i) (i32.const 2)))
            (br $pairs)))
        ;; the last unit of an odd width, one at a time
        (if (i32.lt_u (local.get $i) (local.get $inSize))
          (then
            (local.set $at (i32.shl (i32.add (i32.mul (local.get $r) (local.get $inSize)) (local.get $i)) (i32.const 3)))
            (if (f64.eq (f64.load (i32.add (local.get $input) (local.get $at))) (f64.const 0))
              (then (f64.store (i32.add (local.get $previousDelta) (local.get $at)) (f64.const 0)))
              (else
                (local.set $wRow (i32.add (local.get $weights) (i32.shl (i32.mul (local.get $i) (local.get $outSize)) (i32.const 3))))
                (local.set $sum (f64.const 0))
                (local.set $j (i32.const 0))
                (block $doneFours
                  (loop $fours
                    (br_if $doneFours (i32.ge_u (i32.add (local.get $j) (i32.const 3)) (local.get $outSize)))
                    (local.set $v1 (f64x2.mul (v128.load (i32.add (local.get $wRow) (i32.shl (local.get $j) (i32.const 3))))
                                              (v128.load (i32.add (local.get $dRow) (i32.shl (local.get $j) (i32.const 3))))))
                    (local.set $v2 (f64x2.mul (v128.load offset=16 (i32.add (local.get $wRow) (i32.shl (local.get $j) (i32.const 3))))
                                              (v128.load offset=16 (i32.add (local.get $dRow) (i32.shl (local.get $j) (i32.const 3))))))
                    (local.set $sum (f64.add (local.get $sum)
                      (f64.add (f64.add (f64.add (f64x2.extract_lane 0 (local.get $v1)) (f64x2.extract_lane 1 (local.get $v1)))
                                        (f64x2.extract_lane 0 (local.get $v2)))
                               (f64x2.extract_lane 1 (local.get $v2)))))
                    (local.set $j (i32.add (local.get $j) (i32.const 4)))
                    (br $fours)))
                (block $doneOnes
                  (loop $ones
                    (br_if $doneOnes (i32.ge_u (local.get $j) (local.get $outSize)))
                    (local.set $sum (f64.add (local.get $sum)
                      (f64.mul (f64.load (i32.add (local.get $wRow) (i32.shl (local.get $j) (i32.const 3))))
                               (f64.load (i32.add (local.get $dRow) (i32.shl (local.get $j) (i32.const 3)))))))
                    (local.set $j (i32.add (local.get $j) (i32.const 1)))
                    (br $ones)))
                (f64.store (i32.add (local.get $previousDelta) (local.get $at)) (f64.mul (local.get $sum) (local.get $keepScale)))))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))`;
}

/** Adam's update for the v128 or f64 values named by `kind` ("f64x2" or "f64"), at byte offset $at. */
function adamUpdate(kind: 'f64x2' | 'f64'): string {
  const load = kind === 'f64x2' ? 'v128.load' : 'f64.load';
  const store = kind === 'f64x2' ? 'v128.store' : 'f64.store';
  const value = (name: string) => (kind === 'f64x2' ? `(f64x2.splat (local.get ${name}))` : `(local.get ${name})`);
  const local = kind === 'f64x2' ? 'v' : 's';
  return `
        (local.set $${local}g (${load} (i32.add (local.get $gradient) (local.get $at))))
        (local.set $${local}m (${kind}.add (${kind}.mul ${value('$beta1')} (${load} (i32.add (local.get $first) (local.get $at))))
                                        (${kind}.mul ${value('$oneMinusBeta1')} (local.get $${local}g))))
        (local.set $${local}v (${kind}.add (${kind}.mul ${value('$beta2')} (${load} (i32.add (local.get $second) (local.get $at))))
                                        (${kind}.mul (${kind}.mul ${value('$oneMinusBeta2')} (local.get $${local}g)) (local.get $${local}g))))
        (${store} (i32.add (local.get $first) (local.get $at)) (local.get $${local}m))
        (${store} (i32.add (local.get $second) (local.get $at)) (local.get $${local}v))
        (${store} (i32.add (local.get $parameters) (local.get $at))
          (${kind}.sub (${load} (i32.add (local.get $parameters) (local.get $at)))
            (${kind}.div (${kind}.mul (${kind}.mul ${value('$rate')} (local.get $${local}m)) ${value('$firstCorrection')})
                         (${kind}.add (${kind}.sqrt (${kind}.mul (local.get $${local}v) ${value('$secondCorrection')})) ${value('$epsilon')}))))`;
}

function adamFunction(): string {
  return `
  (func (export "adam") (param $parameters i32) (param $gradient i32) (param $first i32) (param $second i32) (param $count i32)
        (param $rate f64) (param $beta1 f64) (param $beta2 f64) (param $oneMinusBeta1 f64) (param $oneMinusBeta2 f64)
        (param $firstCorrection f64) (param $secondCorrection f64) (param $epsilon f64)
    (local $k i32) (local $at i32) (local $vg v128) (local $vm v128) (local $vv v128) (local $sg f64) (local $sm f64) (local $sv f64)
    (block $donePairs
      (loop $pairs
        (br_if $donePairs (i32.gt_u (i32.add (local.get $k) (i32.const 2)) (local.get $count)))
        (local.set $at (i32.shl (local.get $k) (i32.const 3)))
        ${adamUpdate('f64x2')}
        (local.set $k (i32.add (local.get $k) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_u (local.get $k) (local.get $count))
      (then
        (local.set $at (i32.shl (local.get $k) (i32.const 3)))
        ${adamUpdate('f64')})))`;
}
