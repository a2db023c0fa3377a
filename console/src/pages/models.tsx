/**
 * The model registry of a customer's sites (POST /terminal/ml-models): production and challengers with their
 * metrics, artifacts and history; promote or roll back (POST /api/models/{id}/promote|rollback); and training
 * jobs (POST /train, GET /api/training-status/{job}) with their stage as a progress bar.
 */
import { useState } from 'preact/hooks';
import { api, sleep } from '../api';
import { ContextFields, useWorkContext } from '../context';
import { ActionForm, ErrorBox, Field, fmt, Progress, Table } from '../ui';

interface Model {
  model_id: string;
  site_id: string;
  model_version: string;
  status: string;
  last_trained_at: string;
  validation_accuracy: number | null;
  validation_mape_percent?: number | null;
  validation_rmse_kw?: number | null;
  artifact_locations?: Record<string, string>;
  hyperparameters?: { members?: string[] };
  status_history?: { action: string; status: string; at: string; reason?: string }[];
}

interface Job {
  job_id: string;
  status: string;
  stage?: string;
  progress: number;
  outcome?: string;
  model_artifacts?: { model_id: string; size_mb: number; deployment_ready: boolean } | null;
  error?: string;
}

export function Models() {
  const [context, setContext] = useWorkContext();
  const [models, setModels] = useState<Model[] | null>(null);
  const [moveError, setMoveError] = useState<unknown>(null);
  const [job, setJob] = useState<Job | null>(null);
  const [folds, setFolds] = useState('14');

  const refresh = async () => setModels((await api<{ model_metrics: Model[] }>('POST', '/terminal/ml-models', { customer_id: context.customer_id })).model_metrics);
  const move = async (model: Model, action: 'promote' | 'rollback') => {
    setMoveError(null);
    try {
      await api('POST', `/api/models/${encodeURIComponent(model.model_id)}/${action}`);
      await refresh();
    } catch (error) {
      setMoveError(error);
    }
  };

  return (
    <>
      <section aria-labelledby="reg-h">
        <h2 id="reg-h">Registry</h2>
        <ActionForm label="Show models" run={refresh}>
          <ContextFields context={context} onChange={setContext} site={false} />
        </ActionForm>
        <ErrorBox error={moveError} />
        {models && (
          <Table
            caption="Models by site"
            testId="models"
            rows={[...models].sort((a, b) => a.site_id.localeCompare(b.site_id) || b.model_version.localeCompare(a.model_version))}
            columns={[
              ['Site', (m) => m.site_id],
              ['Version', (m) => m.model_version],
              ['Status', (m) => <strong>{m.status}</strong>],
              ['Trained', (m) => m.last_trained_at.slice(0, 16).replace('T', ' ')],
              ['Accuracy', (m) => fmt(m.validation_accuracy, 3)],
              ['MAPE %', (m) => fmt(m.validation_mape_percent, 1)],
              ['RMSE kW', (m) => fmt(m.validation_rmse_kw, 3)],
              ['Members', (m) => m.hyperparameters?.members?.join(', ') ?? '–'],
              ['Artifacts', (m) => Object.keys(m.artifact_locations ?? {}).join(', ') || '–'],
              ['History', (m) => m.status_history?.map((h) => `${h.at.slice(0, 10)} ${h.action} → ${h.status}`).join('; ') ?? '–'],
              [
                'Actions',
                (m) => (
                  <>
                    {m.status !== 'production' && (
                      <button type="button" class="secondary" onClick={() => move(m, 'promote')} aria-label={`Promote ${m.site_id} ${m.model_version}`}>
                        Promote
                      </button>
                    )}
                    {m.status === 'production' && (
                      <button type="button" class="secondary" onClick={() => move(m, 'rollback')} aria-label={`Roll back ${m.site_id} ${m.model_version}`}>
                        Roll back
                      </button>
                    )}
                  </>
                ),
              ],
            ]}
          />
        )}
      </section>

      <section aria-labelledby="train-h">
        <h2 id="train-h">Train a model</h2>
        <ActionForm
          label="Start training"
          testId="train-form"
          run={async () => {
            const started = await api<{ training_job: { job_id: string } }>('POST', '/train', {
              customer_id: context.customer_id,
              site_id: context.site_id,
              training_config: { model_type: 'ensemble', cross_validation_folds: Number(folds) },
            });
            let state: Job = { job_id: started.training_job.job_id, status: 'initiated', progress: 0 };
            setJob(state);
            while (/initiated|queued|running|training/.test(state.status)) {
              await sleep(1000);
              state = await api<Job>('GET', `/api/training-status/${state.job_id}`);
              setJob(state);
            }
            await refresh().catch(() => undefined);
          }}
        >
          <ContextFields context={context} onChange={setContext} />
          <Field label="Cross-validation folds" type="number" value={folds} onInput={setFolds} />
        </ActionForm>
        {job && (
          <div role="status" data-testid="training-job">
            <Progress label={`Job ${job.job_id}: ${job.stage ?? job.status}`} value={job.progress / 100} />
            <p>
              Status <strong>{job.status}</strong>
              {job.outcome ? ` — ${job.outcome}` : ''}
              {job.error ? ` — ${job.error}` : ''}
              {job.model_artifacts ? ` · model ${job.model_artifacts.model_id}, ${fmt(job.model_artifacts.size_mb * 1024, 1)} KB` : ''}
            </p>
          </div>
        )}
      </section>
    </>
  );
}
