import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from '../../src/util/paths.js';

// There is no cluster here, so the manifests are checked offline: against the
// Kubernetes API schema of the batch/v1 Job that the kubernetes-models package ships
// (types, enums, required fields; unknown keys are not flagged by that schema), and for
// what a schema cannot see: the two Jobs agree on the image, the shard count and the volume.
const folder = join(packageRoot(), 'examples', 'cluster');
type Manifest = {
  kind: string;
  spec: {
    completions?: number;
    parallelism?: number;
    completionMode?: string;
    template: {
      spec: {
        containers: {
          image: string;
          args: string[];
          env: { name: string; value: string }[];
          volumeMounts: { name: string; mountPath: string }[];
        }[];
        volumes: { name: string; persistentVolumeClaim: { claimName: string } }[];
      };
    };
  };
};

function manifest(name: string): Manifest {
  return parse(readFileSync(join(folder, name), 'utf8')) as Manifest;
}

/** validate() of the batch/v1 Job model: throws with the first schema violation. */
function validateJob(document: unknown): void {
  new Job(document as ConstructorParameters<typeof Job>[0]).validate();
}

describe('examples/cluster/kubernetes-*.yaml', () => {
  it('kubernetes-shards.yaml and kubernetes-merge.yaml are valid batch/v1 Jobs', () => {
    for (const name of ['kubernetes-shards.yaml', 'kubernetes-merge.yaml']) {
      const job = manifest(name);
      expect(job.kind).toBe('Job');
      expect(() => validateJob(job)).not.toThrow();
    }
  });

  it('the schema check can fail: a string where an integer belongs, an unknown restartPolicy, no template', () => {
    const job = manifest('kubernetes-shards.yaml');
    expect(() => validateJob({ ...job, spec: { ...job.spec, completions: 'four' } })).toThrow(
      /completions must be integer/,
    );
    const template = job.spec.template;
    expect(() =>
      validateJob({
        ...job,
        spec: { ...job.spec, template: { ...template, spec: { ...template.spec, restartPolicy: 'Sometimes' } } },
      }),
    ).toThrow(/restartPolicy must be equal to one of the allowed values/);
    const { template: _template, ...withoutTemplate } = job.spec;
    expect(() => validateJob({ ...job, spec: withoutTemplate })).toThrow(
      /data\/spec must have required property template/,
    );
  });

  it(
    'the shard Job runs one indexed pod per shard, SHARDS = completions, shard k+1 from JOB_COMPLETION_INDEX k, ' +
      'with --resume',
    () => {
      const job = manifest('kubernetes-shards.yaml');
      const container = job.spec.template.spec.containers[0];
      const env = Object.fromEntries(container.env.map((variable) => [variable.name, variable.value]));
      expect(job.spec.completionMode).toBe('Indexed');
      expect(Number(env.SHARDS)).toBe(job.spec.completions);
      expect(container.args.join(' ')).toMatch(
        /fairaudit run "\$CONFIG" --shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/\$SHARDS" .*--resume/,
      );
    },
  );

  it(
    'the merge Job uses the same image, shard count and results volume as the shard Job, and merges every shard ' +
      'folder',
    () => {
      const shards = manifest('kubernetes-shards.yaml');
      const merge = manifest('kubernetes-merge.yaml');
      const shardContainer = shards.spec.template.spec.containers[0];
      const mergeContainer = merge.spec.template.spec.containers[0];
      expect(mergeContainer.image).toBe(shardContainer.image);
      const envOf = (container: typeof shardContainer) =>
        Object.fromEntries(container.env.map((variable) => [variable.name, variable.value]));
      expect(envOf(mergeContainer).SHARDS).toBe(envOf(shardContainer).SHARDS);
      expect(merge.spec.template.spec.volumes).toEqual(shards.spec.template.spec.volumes);
      expect(mergeContainer.volumeMounts).toEqual(shardContainer.volumeMounts);
      expect(mergeContainer.args.join(' ')).toMatch(
        /fairaudit merge results\/"\$EXPERIMENT"\/shard-\*-of-"\$SHARDS" --out results\/"\$EXPERIMENT"/,
      );
    },
  );
});
