/**
 * The maintenance loop: assets; detection with its anomalies drawn on the asset's series; diagnosis with its
 * evidence; work orders as a board by status, each card offering only the moves the status machine allows
 * (ORDER_TRANSITIONS, the service's own table); tracking subscriptions and webhook registrations with their
 * recent delivery attempts.
 */
import { useState } from 'preact/hooks';
import { ORDER_STATUSES, ORDER_TRANSITIONS, type OrderStatus } from '../../../shared/domain/operations/work-orders';
import type { DeliveryOutcome as Delivery } from '../../../shared/domain/webhooks/delivery-outcome';
import { api } from '../api';
import { Chart, PALETTE } from '../chart';
import { useWorkContext } from '../context';
import { ActionForm, ErrorBox, Field, fmt, Select, Table } from '../ui';

interface Asset {
  asset_id: string;
  name: string;
  type: string;
  capacity_kw?: number;
  customer_id?: string;
  site_id?: string;
}

interface Anomaly {
  kind: string;
  start: string;
  end: string;
  severity: string;
  energy_at_risk_kwh?: number;
  evidence?: Record<string, unknown>;
}

interface Detection {
  message: string;
  detection_id: string;
  severity?: string;
  anomalies?: Anomaly[];
}

interface Diagnosis {
  message: string;
  root_cause: string;
  confidence: number;
  fault_family?: string;
  severity?: string;
  energy_at_risk_kw?: number;
  faults?: { family: string; confidence: number }[];
  recommended_actions: { priority: string; action: string }[];
  evidence?: unknown;
}

interface Order {
  order_id: string;
  asset_id: string;
  status: string;
  assigned_technician?: string;
  priority?: string;
  estimated_completion: string;
}


interface Subscription {
  subscription_id: string;
  order_id: string;
  callback_url: string;
  status: string;
  recent_deliveries?: Delivery[];
}

interface Webhook {
  webhook_id: string;
  webhook_url: string;
  events: string[];
  created_at: string;
  recent_deliveries?: Delivery[];
}

const deliveries = (list?: Delivery[]) =>
  list?.length
    ? list.map((d) => `${d.at.slice(0, 16).replace('T', ' ')} ${d.event_type} #${d.attempt}: ${d.outcome}${d.outcome === 'failed' && d.reason ? ` (${d.reason})` : ''}`).join('; ')
    : 'none yet';

const HOUR = 3_600_000;

export function Operations() {
  const [context] = useWorkContext();
  const [assets, setAssets] = useState<Asset[] | null>(null);
  const [assetId, setAssetId] = useState('');
  const [detection, setDetection] = useState<Detection | null>(null);
  const [drawn, setDrawn] = useState<{ times: number[]; values: (number | null)[]; flagged: (number | null)[] } | null>(null);
  const [diagnosis, setDiagnosis] = useState<Diagnosis | null>(null);
  const [orders, setOrders] = useState<Order[]>([]);
  const [moveError, setMoveError] = useState<unknown>(null);
  const [order, setOrder] = useState({ technician: '', date: new Date(Date.now() + 7 * 24 * HOUR).toISOString().slice(0, 10), hours: '3', priority: 'medium' });
  const [subscriptions, setSubscriptions] = useState<Subscription[]>([]);
  const [callback, setCallback] = useState('https://hooks.example.com/orders');
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null);
  const [webhookUrl, setWebhookUrl] = useState('https://hooks.example.com/energy');
  const [newAsset, setNewAsset] = useState({ asset_id: '', name: '', type: 'inverter', capacity_kw: '10', location: '' });

  const asset = assets?.find((a) => a.asset_id === assetId);
  const listAssets = async () => {
    const list = (await api<{ assets: Asset[] }>('POST', '/terminal/assets', { action: 'list' })).assets;
    setAssets(list);
    if (!assetId && list[0]) setAssetId(list[0].asset_id);
  };
  const listOrders = async (id = assetId) => setOrders((await api<{ orders: Order[] }>('POST', '/terminal/order', { action: 'list', asset_id: id })).orders);
  const listSubscriptions = async (list: Order[]) => {
    const all = await Promise.all(list.map((o) => api<{ subscriptions: Subscription[] }>('POST', '/terminal/track', { action: 'list', order_id: o.order_id }).then((r) => r.subscriptions)));
    setSubscriptions(all.flat());
  };

  const move = async (o: Order, status: OrderStatus) => {
    setMoveError(null);
    try {
      await api('POST', '/terminal/order', { action: 'update', asset_id: o.asset_id, order_id: o.order_id, status });
      await listOrders(o.asset_id);
    } catch (error) {
      setMoveError(error);
    }
  };

  /** The asset's series over the detection's span, anomalous steps marked. */
  const drawAnomalies = async (a: Asset, found: Anomaly[]) => {
    setDrawn(null);
    if (!a.site_id || !a.customer_id || !found.length) return;
    const start = Math.min(...found.map((x) => Date.parse(x.start))) - 24 * HOUR;
    const end = Math.max(...found.map((x) => Date.parse(x.end))) + 24 * HOUR;
    const series = await api<{ points: { timestamp: string; value: number | null }[] }>(
      'GET',
      `/api/sites/${encodeURIComponent(a.site_id)}/series?${new URLSearchParams({ customer_id: a.customer_id, start: new Date(start).toISOString(), end: new Date(end).toISOString() })}`,
    );
    const times = series.points.map((p) => Date.parse(p.timestamp));
    const inside = (t: number) => found.some((x) => t >= Date.parse(x.start) && t <= Date.parse(x.end));
    setDrawn({ times, values: series.points.map((p) => p.value), flagged: series.points.map((p, i) => (inside(times[i]) ? p.value : null)) });
  };

  return (
    <>
      <section aria-labelledby="assets-h">
        <h2 id="assets-h">Assets</h2>
        <ActionForm label="List assets" run={listAssets} />
        <details>
          <summary>Add an asset on the current site</summary>
          <ActionForm
            label="Add asset"
            testId="asset-form"
            run={async () => {
              await api('POST', '/terminal/assets', {
                action: 'add',
                ...newAsset,
                capacity_kw: Number(newAsset.capacity_kw),
                customer_id: context.customer_id || undefined,
                site_id: context.site_id || undefined,
                location: newAsset.location || undefined,
              });
              setAssetId(newAsset.asset_id);
              await listAssets();
            }}
          >
            <Field label="Asset id" value={newAsset.asset_id} onInput={(v) => setNewAsset({ ...newAsset, asset_id: v })} required />
            <Field label="Name" value={newAsset.name} onInput={(v) => setNewAsset({ ...newAsset, name: v })} required />
            <Select label="Type" value={newAsset.type} options={['inverter', 'battery', 'panel', 'turbine', 'transformer', 'meter']} onChange={(v) => setNewAsset({ ...newAsset, type: v })} />
            <Field label="Capacity kW" type="number" value={newAsset.capacity_kw} onInput={(v) => setNewAsset({ ...newAsset, capacity_kw: v })} />
            <Field label="Location (lat,lon)" value={newAsset.location} onInput={(v) => setNewAsset({ ...newAsset, location: v })} required />
            <p class="muted">
              Linked to customer {context.customer_id || '–'}, site {context.site_id || '–'} (set them on Sites and data).
            </p>
          </ActionForm>
        </details>
        {assets && (
          <>
            <Table
              caption="Assets"
              rows={assets}
              columns={[
                ['Asset', (a) => <code>{a.asset_id}</code>],
                ['Name', (a) => a.name],
                ['Type', (a) => a.type],
                ['kW', (a) => fmt(a.capacity_kw)],
                ['Customer / site', (a) => `${a.customer_id ?? '–'} / ${a.site_id ?? '–'}`],
              ]}
            />
            <Select label="Work on asset" value={assetId} options={assets.map((a) => a.asset_id)} onChange={setAssetId} />
          </>
        )}
      </section>

      {asset && (
        <section aria-labelledby="loop-h">
          <h2 id="loop-h">Observe and orient: {asset.asset_id}</h2>
          <div class="grid2">
            <ActionForm
              label="Run detection"
              testId="detect-form"
              run={async () => {
                const d = await api<Detection>('POST', '/terminal/detect', { action: 'run', asset_id: asset.asset_id });
                setDetection(d);
                await drawAnomalies(asset, d.anomalies ?? []);
              }}
            />
            <ActionForm label="Run diagnosis" testId="diagnose-form" run={async () => setDiagnosis(await api<Diagnosis>('POST', '/terminal/diagnose', { action: 'run', asset_id: asset.asset_id }))} />
          </div>
          {detection && (
            <>
              <p role="status">{detection.message}</p>
              <Table
                caption="Anomalies"
                rows={detection.anomalies ?? []}
                columns={[
                  ['Kind', (x) => x.kind],
                  ['From', (x) => x.start.slice(0, 16).replace('T', ' ')],
                  ['To', (x) => x.end.slice(0, 16).replace('T', ' ')],
                  ['Severity', (x) => x.severity],
                  ['Energy at risk kWh', (x) => fmt(x.energy_at_risk_kwh)],
                  ['Evidence', (x) => <code>{JSON.stringify(x.evidence ?? {})}</code>],
                ]}
              />
            </>
          )}
          {drawn && (
            <Chart
              title="The asset's series with the detected anomalies marked"
              testId="anomaly-chart"
              times={drawn.times}
              lines={[
                { label: 'Measured', values: drawn.values, color: PALETTE.blue },
                { label: 'Anomalous', values: drawn.flagged, color: PALETTE.vermillion, markers: true },
              ]}
              axes={[{ scale: 'y', label: 'kW' }]}
            />
          )}
          {diagnosis && (
            <div data-testid="diagnosis">
              <h3>Diagnosis</h3>
              <p>
                <strong>{diagnosis.fault_family ?? 'no fault'}</strong> · confidence {fmt(diagnosis.confidence)} · severity {diagnosis.severity ?? '–'} · energy at risk {fmt(diagnosis.energy_at_risk_kw)} kW
              </p>
              <p>{diagnosis.root_cause}</p>
              <ol>
                {diagnosis.recommended_actions.map((a) => (
                  <li>
                    [{a.priority}] {a.action}
                  </li>
                ))}
              </ol>
            </div>
          )}
        </section>
      )}

      {asset && (
        <section aria-labelledby="orders-h">
          <h2 id="orders-h">Decide and act: work orders of {asset.asset_id}</h2>
          <ActionForm
            label="Schedule and create a work order"
            testId="order-form"
            run={async () => {
              const schedule = await api<{ schedule_id: string }>('POST', '/terminal/schedule', {
                action: 'create',
                asset_id: asset.asset_id,
                maintenance_type: 'preventive',
                scheduled_date: `${order.date}T09:00:00Z`,
                priority: order.priority,
                reason: 'from the console',
              });
              const bom = await api<{ bom_id: string }>('POST', '/terminal/bom', { action: 'generate', asset_id: asset.asset_id, maintenance_type: 'preventive', schedule_id: schedule.schedule_id });
              await api('POST', '/terminal/order', {
                action: 'create',
                asset_id: asset.asset_id,
                schedule_id: schedule.schedule_id,
                bom_id: bom.bom_id,
                assigned_technician: order.technician,
                estimated_duration_hours: Number(order.hours),
                priority: order.priority,
              });
              await listOrders(asset.asset_id);
            }}
          >
            <Field label="Technician" value={order.technician} onInput={(v) => setOrder({ ...order, technician: v })} required />
            <Field label="Date" type="date" value={order.date} onInput={(v) => setOrder({ ...order, date: v })} required />
            <Field label="Hours" type="number" value={order.hours} onInput={(v) => setOrder({ ...order, hours: v })} />
            <Select label="Priority" value={order.priority} options={['low', 'medium', 'high', 'critical']} onChange={(v) => setOrder({ ...order, priority: v })} />
          </ActionForm>
          <ActionForm label="Refresh the board" run={() => listOrders(asset.asset_id)} />
          <ErrorBox error={moveError} />
          <div class="board" data-testid="order-board">
            {ORDER_STATUSES.map((status) => (
              <div class="column" role="region" aria-label={`Orders ${status.replace('_', ' ')}`} data-status={status}>
                <h3>{status.replace('_', ' ')}</h3>
                {orders
                  .filter((o) => o.status === status)
                  .map((o) => (
                    <div class="card" data-order={o.order_id}>
                      <code>{o.order_id.slice(0, 12)}…</code>
                      <div>
                        {o.assigned_technician ?? ''} {o.priority ? `· ${o.priority}` : ''}
                      </div>
                      <div class="muted">due {o.estimated_completion.slice(0, 10)}</div>
                      <div class="moves">
                        {ORDER_TRANSITIONS[status].map((next) => (
                          <button type="button" class="secondary" onClick={() => move(o, next)} aria-label={`Move order ${o.order_id} to ${next.replace('_', ' ')}`}>
                            → {next.replace('_', ' ')}
                          </button>
                        ))}
                      </div>
                    </div>
                  ))}
              </div>
            ))}
          </div>
        </section>
      )}

      <section aria-labelledby="hooks-h">
        <h2 id="hooks-h">Tracking and webhooks</h2>
        <div class="grid2">
          <ActionForm
            label="Subscribe to every order shown"
            run={async () => {
              for (const o of orders) await api('POST', '/terminal/track', { action: 'subscribe', order_id: o.order_id, callback_url: callback });
              await listSubscriptions(orders);
            }}
          >
            <Field label="Callback URL" type="url" value={callback} onInput={setCallback} />
          </ActionForm>
          <ActionForm label="List subscriptions" run={() => listSubscriptions(orders)} />
        </div>
        <Table
          caption="Order-tracking subscriptions"
          rows={subscriptions}
          columns={[
            ['Order', (s) => <code>{s.order_id.slice(0, 12)}…</code>],
            ['Callback', (s) => s.callback_url],
            ['Status', (s) => s.status],
            ['Recent deliveries', (s) => deliveries(s.recent_deliveries)],
          ]}
        />
        <div class="grid2">
          <ActionForm
            label="Register a webhook"
            run={async () => {
              await api('POST', '/api/webhooks', { webhook_url: webhookUrl, events: ['training_completed', 'forecast_ready'] });
              setWebhooks((await api<{ webhooks: Webhook[] }>('GET', '/api/webhooks')).webhooks);
            }}
          >
            <Field label="Webhook URL" type="url" value={webhookUrl} onInput={setWebhookUrl} />
          </ActionForm>
          <ActionForm label="List webhooks" run={async () => setWebhooks((await api<{ webhooks: Webhook[] }>('GET', '/api/webhooks')).webhooks)} />
        </div>
        {webhooks && (
          <Table
            caption="Webhook registrations"
            rows={webhooks}
            columns={[
              ['Webhook', (w) => <code>{w.webhook_id.slice(0, 12)}…</code>],
              ['URL', (w) => w.webhook_url],
              ['Events', (w) => w.events.join(', ')],
              ['Recent deliveries', (w) => deliveries(w.recent_deliveries)],
            ]}
          />
        )}
        {!context.customer_id && <p class="muted">Assets list every asset of your account.</p>}
      </section>
    </>
  );
}
