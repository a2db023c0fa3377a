/** Tier, usage against the month's limits, and the service's health. */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { ActionForm, ErrorBox, fmt } from '../ui';

interface Usage {
  user_email: string;
  tier: string;
  current_month: string;
  usage: Record<string, number>;
  limits: Record<string, number>;
}

interface Health {
  status: string;
  version: string;
  region: string;
  components: Record<string, string>;
  weather?: { provider: string; detail: string };
}

/** Usage counters and the limit each is held against. */
const METERS: [string, string, string][] = [
  ['Forecasts', 'forecasts', 'forecasts_per_month'],
  ['Policy queries', 'policy_queries', 'policy_queries_per_month'],
  ['Data cleaning', 'data_cleaning_operations', 'data_cleaning_per_month'],
  ['Model training', 'model_training_jobs', 'model_training_per_month'],
];

interface SystemStatus {
  system_metrics: Record<string, number | string>;
  service_metrics: Record<string, number | string | string[]>;
}

export function Overview() {
  const [status, setStatus] = useState<SystemStatus | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api<Usage>('GET', '/api/usage').then(setUsage, setError);
    api<Health>('GET', '/health').then(setHealth, setError);
  }, []);
  return (
    <>
      <ErrorBox error={error} />
      <div class="grid2">
        <section aria-labelledby="usage-h" data-testid="usage">
          <h2 id="usage-h">Usage this month</h2>
          {usage && (
            <>
              <p>
                {usage.user_email} · tier <strong data-testid="tier">{usage.tier}</strong> · {usage.current_month}
              </p>
              <div class="bars">
                {METERS.map(([label, used, limit]) => {
                  const cap = usage.limits[limit];
                  const count = usage.usage[used] ?? 0;
                  const share = cap > 0 ? Math.min(1, count / cap) : count > 0 ? 1 : 0;
                  return (
                    <>
                      <span id={`m-${used}`}>{label}</span>
                      <div class={`bar${share >= 0.8 ? ' high' : ''}`} role="meter" aria-labelledby={`m-${used}`} aria-valuemin={0} aria-valuemax={cap || 0} aria-valuenow={count}>
                        <span style={{ width: `${share * 100}%` }} />
                      </div>
                      <span>
                        {count} / {cap === 0 ? 'not in tier' : cap >= 1e9 ? '∞' : fmt(cap, 0)}
                      </span>
                    </>
                  );
                })}
              </div>
              {usage.tier !== 'enterprise' && (
                <p>
                  Some pages need a higher tier (training: professional; system status: enterprise). The API reference lists each tier's limits: <a href="../docs">API reference</a>.
                </p>
              )}
            </>
          )}
        </section>
        <section aria-labelledby="health-h" data-testid="health">
          <h2 id="health-h">Health</h2>
          {health && (
            <>
              <p>
                Service <span class={health.status === 'healthy' ? 'status-ok' : 'status-bad'}>{health.status}</span> · version {health.version} · {health.region}
              </p>
              <dl class="kv">
                {Object.entries(health.components).map(([name, state]) => (
                  <>
                    <dt>{name.replace(/_/g, ' ')}</dt>
                    <dd class={state === 'operational' ? 'status-ok' : 'status-bad'}>{state}</dd>
                  </>
                ))}
                {health.weather && (
                  <>
                    <dt>weather provider</dt>
                    <dd>{health.weather.detail}</dd>
                  </>
                )}
              </dl>
            </>
          )}
        </section>
      </div>
      <section aria-labelledby="platform-h">
        <h2 id="platform-h">Platform status (enterprise tier)</h2>
        <ActionForm label="Show platform status" testId="system-status" run={async () => setStatus(await api<SystemStatus>('GET', '/api/system-status'))} />
        {status && (
          <dl class="kv">
            {Object.entries({ ...status.system_metrics, ...status.service_metrics })
              .filter(([, v]) => !Array.isArray(v))
              .map(([k, v]) => (
                <>
                  <dt>{k.replace(/_/g, ' ')}</dt>
                  <dd>{typeof v === 'number' ? fmt(v, 3) : v}</dd>
                </>
              ))}
          </dl>
        )}
      </section>
    </>
  );
}
