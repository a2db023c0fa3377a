/**
 * Customers and sites: create a client and customer, upload a CSV (drop it or pick it) with a progress bar over
 * the upload and then its processing, the upload's status and reason, and the stored series as a chart with its
 * gaps and flagged values marked.
 */
import { useState } from 'preact/hooks';
import { api, sleep, uploadForm } from '../api';
import { Chart, PALETTE, type Line } from '../chart';
import { ContextFields, useWorkContext } from '../context';
import { ActionForm, ErrorBox, Field, fmt, Progress, Select } from '../ui';

interface Upload {
  upload_id: string;
  status?: string;
  processing_status?: string;
  error?: string;
  reason?: string;
  notes?: string[];
  training?: { queued: boolean; reason: string; job_id?: string };
}

interface SeriesPoint {
  timestamp: string;
  value: number | null;
  quality: string;
}

interface Series {
  interval_minutes: number;
  points: SeriesPoint[];
  counts: Record<string, number>;
}

/** Flag colours and labels on the series chart (gaps show as breaks in the line). */
const FLAGS: [string, string, string][] = [
  ['outlier', 'Outlier', PALETTE.vermillion],
  ['stale', 'Stale (stuck value)', PALETTE.purple],
];

const UPLOAD_KINDS = { 'historical (train)': '/upload_train', historical: '/upload_historical' } as const;

function statusOf(u: Upload): string {
  return u.processing_status ?? u.status ?? 'queued';
}

export function SeriesChart({ series, title }: { series: Series; title: string }) {
  const times = series.points.map((p) => Date.parse(p.timestamp));
  const lines: Line[] = [{ label: 'Stored value', values: series.points.map((p) => p.value), color: PALETTE.blue }];
  for (const [quality, label, color] of FLAGS) {
    if (!series.points.some((p) => p.quality === quality)) continue;
    lines.push({ label, values: series.points.map((p) => (p.quality === quality ? p.value : null)), color, markers: true });
  }
  return <Chart title={title} times={times} lines={lines} testId="series-chart" />;
}

export function Sites() {
  const [context, setContext] = useWorkContext();
  const [client, setClient] = useState({ client_id: '', name: '', contact_email: '' });
  const [customer, setCustomer] = useState({ contact_name: '', email: '', location: '', system_type: 'solar' });
  const [created, setCreated] = useState('');
  const [site, setSite] = useState<Record<string, unknown> | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [over, setOver] = useState(false);
  const [kind, setKind] = useState<keyof typeof UPLOAD_KINDS>('historical (train)');
  const [location, setLocation] = useState('');
  const [region, setRegion] = useState('us-east-1');
  const [sent, setSent] = useState(0);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [series, setSeries] = useState<Series | null>(null);
  const [seriesError, setSeriesError] = useState<unknown>(null);

  const loadSeries = async () => {
    setSeriesError(null);
    try {
      const query = new URLSearchParams({ customer_id: context.customer_id });
      setSeries(await api<Series>('GET', `/api/sites/${encodeURIComponent(context.site_id)}/series?${query}`));
    } catch (error) {
      setSeries(null);
      setSeriesError(error);
    }
  };

  return (
    <>
      <section aria-labelledby="ctx-h">
        <h2 id="ctx-h">Customer and site</h2>
        <ActionForm
          label="Show site"
          testId="site-form"
          run={async () => {
            const query = new URLSearchParams({ customer_id: context.customer_id });
            setSite(await api('GET', `/api/sites/${encodeURIComponent(context.site_id)}?${query}`));
            await loadSeries();
          }}
        >
          <ContextFields context={context} onChange={setContext} />
        </ActionForm>
        {site && (
          <pre class="muted" data-testid="site">
            {JSON.stringify((site as { site?: unknown }).site ?? site, null, 1)}
          </pre>
        )}
        <details>
          <summary>New client and customer</summary>
          <ActionForm
            label="Create client and customer"
            run={async () => {
              await api('POST', '/api/create-client', { ...client, tier: 'free', services: ['forecasting', 'optimization'] }).catch((e: { status?: number }) => {
                if (e.status !== 409) throw e; // an existing client of yours is fine
              });
              await api('POST', '/api/create-customer', { client_id: client.client_id, customer_id: context.customer_id, ...customer });
              setCreated(`Customer ${context.customer_id} created under ${client.client_id}`);
            }}
          >
            <Field label="Client id" value={client.client_id} onInput={(v) => setClient({ ...client, client_id: v })} required />
            <Field label="Client name" value={client.name} onInput={(v) => setClient({ ...client, name: v })} required />
            <Field label="Client e-mail" type="email" value={client.contact_email} onInput={(v) => setClient({ ...client, contact_email: v })} required />
            <Field label="Contact name" value={customer.contact_name} onInput={(v) => setCustomer({ ...customer, contact_name: v })} required />
            <Field label="Customer e-mail" type="email" value={customer.email} onInput={(v) => setCustomer({ ...customer, email: v })} required />
            <Field label="Location (lat,lon)" value={customer.location} onInput={(v) => setCustomer({ ...customer, location: v })} required />
            <Select label="System type" value={customer.system_type} options={['solar', 'wind', 'battery', 'hybrid']} onChange={(v) => setCustomer({ ...customer, system_type: v })} />
          </ActionForm>
          {created && <p role="status">{created}</p>}
        </details>
      </section>

      <section aria-labelledby="up-h">
        <h2 id="up-h">Upload a CSV</h2>
        <ActionForm
          label="Upload"
          testId="upload-form"
          run={async () => {
            if (!file) throw new Error('Choose or drop a CSV file first');
            setUpload(null);
            setSent(0);
            const form = new FormData();
            form.set('customer_id', context.customer_id);
            form.set('site_id', context.site_id);
            form.set('region', region);
            if (location) form.set('location', location);
            form.set('file', file);
            const accepted = await uploadForm<Upload>(UPLOAD_KINDS[kind], form, setSent);
            let state: Upload = accepted;
            setUpload(state);
            while (/queued|processing/.test(statusOf(state))) {
              await sleep(700);
              state = await api<Upload>('GET', `/api/uploads/${accepted.upload_id}`);
              setUpload(state);
            }
            if (statusOf(state) === 'processed') await loadSeries();
          }}
        >
          <div
            class={`drop${over ? ' over' : ''} field wide`}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(true);
            }}
            onDragLeave={() => setOver(false)}
            onDrop={(e) => {
              e.preventDefault();
              setOver(false);
              const dropped = e.dataTransfer?.files[0];
              if (dropped) setFile(dropped);
            }}
          >
            <label for="csv-file">Drop a CSV here, or choose one</label>
            <input id="csv-file" type="file" accept=".csv,text/csv" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
            {file && <p>{file.name} ({fmt(file.size / 1024, 1)} KB)</p>}
          </div>
          <Select label="Kind" value={kind} options={Object.keys(UPLOAD_KINDS)} onChange={(v) => setKind(v as keyof typeof UPLOAD_KINDS)} />
          <Field label="Region" value={region} onInput={setRegion} />
          <Field label="Location (lat,lon)" value={location} onInput={setLocation} placeholder="38.18,117.46" />
        </ActionForm>
        {sent > 0 && <Progress label="Upload sent" value={sent} />}
        {upload && (
          <div data-testid="upload-status" role="status">
            <Progress label="Processing" value={statusOf(upload) === 'queued' ? 0.25 : statusOf(upload) === 'processing' ? 0.6 : 1} />
            <p>
              Upload <code>{upload.upload_id}</code>: <strong data-testid="upload-state">{statusOf(upload)}</strong>
              {upload.error || upload.reason ? ` — ${upload.error ?? upload.reason}` : ''}
            </p>
            {upload.notes?.map((n) => <p class="muted">{n}</p>)}
            {upload.training && <p>Training: {upload.training.reason}</p>}
          </div>
        )}
      </section>

      <section aria-labelledby="series-h">
        <h2 id="series-h">Stored series</h2>
        <ErrorBox error={seriesError} />
        {series ? (
          <>
            <p>
              {series.points.length} steps of {series.interval_minutes} min ·{' '}
              {Object.entries(series.counts)
                .map(([k, v]) => `${k} ${v}`)
                .join(' · ')}
            </p>
            <SeriesChart series={series} title={`Site ${context.site_id}: stored values, gaps and flags`} />
          </>
        ) : (
          <p class="muted">Show a site to draw its stored series.</p>
        )}
      </section>
    </>
  );
}
