/** Training jobs (analytics table): what was asked, the stage reached, and the outcome or the reason it failed. */
import { getRecord, putNew, setFields } from './dynamo';
import { keys } from './keys';

export type TrainingJobStatus = 'initiated' | 'running' | 'completed' | 'failed';

export interface TrainingJobRecord {
  job_id: string;
  account_id: string;
  customer_id: string;
  site_id: string;
  /** `requested` by POST /train, `automatic` when a site reached enough history. */
  origin: 'requested' | 'automatic';
  status: TrainingJobStatus;
  stage: string;
  progress: number;
  training_config: Record<string, unknown>;
  data_requirements: Record<string, unknown>;
  training_features: string[];
  created_at: string;
  updated_at: string;
  estimated_completion: string;
  /** When a worker took the job, and when it finished. */
  started_at?: string;
  completed_at?: string;
  /** Epoch seconds until which a worker holds the job (a crashed worker's job can be taken again after it). */
  lease_until?: number;
  model_performance?: Record<string, unknown>;
  model_artifacts?: { model_id: string; deployment_ready: boolean; size_mb: number };
  outcome?: string;
  reason?: string;
}

export async function createTrainingJob(job: TrainingJobRecord): Promise<boolean> {
  return putNew('analytics', { ...keys.trainingJob(job.job_id), ...job });
}

export async function getTrainingJob(jobId: string): Promise<TrainingJobRecord | undefined> {
  return getRecord<TrainingJobRecord>('analytics', keys.trainingJob(jobId));
}

export async function updateTrainingJob(jobId: string, patch: Partial<Omit<TrainingJobRecord, 'job_id'>>): Promise<void> {
  await setFields('analytics', keys.trainingJob(jobId), { ...patch, updated_at: new Date().toISOString() });
}

/**
 * Takes the job for one worker: false when it is finished, or held by a live lease (a duplicate message
 * while another worker trains it).
 */
export async function claimTrainingJob(jobId: string, leaseSeconds: number): Promise<boolean> {
  const now = Math.floor(Date.now() / 1000);
  return setFields(
    'analytics',
    keys.trainingJob(jobId),
    { status: 'running', lease_until: now + leaseSeconds, started_at: new Date().toISOString(), updated_at: new Date().toISOString() },
    {
      condition: 'attribute_exists(pk) AND (#c0 = :c0 OR (#c0 = :c1 AND #c1 < :c2))',
      conditionNames: { '#c0': 'status', '#c1': 'lease_until' },
      conditionValues: { ':c0': 'initiated', ':c1': 'running', ':c2': now },
    },
  );
}
