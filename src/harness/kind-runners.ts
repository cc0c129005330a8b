import { Registry } from '../util/registry.js';
import type { KindRunner } from './kind-runner.js';

// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their settings and context types
type AnyKindRunner = KindRunner<any, any>;

/**
 * The experiment kinds the harness can run (config `kind:`), by name. The harness
 * knows no kind of its own: the composition root (src/cli/registry.ts) registers the
 * built-in kinds of src/kinds/, and a library user registers theirs with registerKind
 * (src/kinds/kind.ts) or registerKindRunner. Worker threads never look here: each
 * kind names the module they import (KindRunner.module).
 */
const runners = new Registry<AnyKindRunner>('experiment kind');

/**
 * registerKindRunner(runner) makes a kind's run half known to loadConfig, plan, run
 * and merge. Throws an Error when the name is taken or the runner names no module.
 */
export function registerKindRunner(runner: AnyKindRunner): void {
  if (typeof runner?.module !== 'string' || runner.module === '') {
    throw new Error(
      `register experiment kind: "${runner?.name}" must set module (import.meta.url of the module exporting it)`,
    );
  }
  runners.register(runner);
}

/** findKindRunner(name) is the run half registered under a name, or undefined. O(1). */
export function findKindRunner(name: string): AnyKindRunner | undefined {
  return runners.find(name);
}

/**
 * kindRunners() lists the registered run halves in registration order.
 * @returns the registered kinds' run halves, in registration order
 * @example
 * console.log(kindRunners().map((kind) => kind.name));
 */
export function kindRunners(): AnyKindRunner[] {
  return runners.list();
}
