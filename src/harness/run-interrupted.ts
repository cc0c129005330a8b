/**
 * RunInterrupted: what runExperiment throws when its `signal` aborts (the CLI aborts it on
 * SIGTERM or SIGINT): the chunks completed so far are in the checkpoints, the folder's lock
 * is released, and `--resume` continues from them. Not an internal failure: the CLI
 * prints what was saved and how to continue.
 */
export class RunInterrupted extends Error {
  /** Replicates saved in the checkpoints (those resumed included). */
  readonly savedReplicates: number;
  /** Replicates of this run (or shard). */
  readonly totalReplicates: number;
  /** The checkpoint folder. */
  readonly checkpointFolder: string;

  /**
   * @param savedReplicates replicates saved in the checkpoints
   * @param totalReplicates replicates of this run
   * @param checkpointFolder where they are
   * @example new RunInterrupted(40, 240, 'results/quickstart/.checkpoints')
   */
  constructor(savedReplicates: number, totalReplicates: number, checkpointFolder: string) {
    super(`interrupted with ${savedReplicates} of ${totalReplicates} replicates saved in ${checkpointFolder}`);
    this.name = 'RunInterrupted';
    this.savedReplicates = savedReplicates;
    this.totalReplicates = totalReplicates;
    this.checkpointFolder = checkpointFolder;
  }
}
