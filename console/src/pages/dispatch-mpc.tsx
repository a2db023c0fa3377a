/**
 * The device's receding-horizon plan (GET /api/dispatch/mpc/{device_id}) against what was measured: the latest
 * plan's SOC and battery power, the SOC measured at each MPC call and the SOC the plan before it expected then.
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Chart, PALETTE } from '../chart';
import { ActionForm, Field, fmt } from '../ui';

interface MpcPlan {
  device_id: string;
  plan_id: string;
  created_at: string;
  interval_minutes: number;
  plan: { timestamp: string; battery_power_kw: number; grid_power_kw: number; soc: number }[];
  /** Newest first. */
  tracking: { timestamp: string; measured_soc: number; planned_soc: number | null; plan_id: string | null }[];
}

/**
 * One time axis for the chart. A plan row's SOC is the SOC at the end of its interval (the API's `soc` of a
 * dispatch step), and a tracking point is an instant, so the SOC line is drawn at interval ends and starts from
 * the SOC measured at the plan's start; the battery power holds over each interval (stepped from its start).
 */
function series(mpc: MpcPlan) {
  const stepMs = mpc.interval_minutes * 60_000;
  const socAt = new Map<number, number>();
  const kwAt = new Map<number, number>();
  const measured = new Map<number, number>();
  const expected = new Map<number, number>();
  for (const t of mpc.tracking) {
    measured.set(Date.parse(t.timestamp), t.measured_soc);
    if (t.planned_soc !== null) expected.set(Date.parse(t.timestamp), t.planned_soc);
  }
  mpc.plan.forEach((row, k) => {
    const start = Date.parse(row.timestamp);
    kwAt.set(start, row.battery_power_kw);
    socAt.set(start + stepMs, row.soc);
    if (k === 0 && measured.has(start)) socAt.set(start, measured.get(start)!);
  });
  const last = mpc.plan.at(-1);
  // The step of the last interval needs a point at its end.
  if (last) kwAt.set(Date.parse(last.timestamp) + stepMs, last.battery_power_kw);
  const times = [...new Set([...socAt.keys(), ...kwAt.keys(), ...measured.keys()])].sort((a, b) => a - b);
  const at = (m: Map<number, number>) => times.map((t) => m.get(t) ?? null);
  return { times, soc: at(socAt), kw: at(kwAt), measured: at(measured), expected: at(expected) };
}

export function MpcPlanSection() {
  const [deviceId, setDeviceId] = useState('');
  const [mpc, setMpc] = useState<MpcPlan | null>(null);
  const s = mpc && series(mpc);
  const compared = mpc?.tracking.filter((t) => t.planned_soc !== null) ?? [];
  const drift = compared.length ? compared.reduce((sum, t) => sum + Math.abs(t.measured_soc - t.planned_soc!), 0) / compared.length : null;

  return (
    <section aria-labelledby="mpc-h">
      <h2 id="mpc-h">Receding horizon (MPC)</h2>
      <ActionForm
        label="Show plan"
        testId="mpc-form"
        run={async () => {
          setMpc(null);
          setMpc(await api<MpcPlan>('GET', `/api/dispatch/mpc/${encodeURIComponent(deviceId.trim())}`));
        }}
      >
        <Field label="Device id" value={deviceId} onInput={setDeviceId} required hint="a device planned by POST /api/dispatch/mpc with its device_id" />
      </ActionForm>
      {mpc && s && (
        <div data-testid="mpc-result">
          <p data-testid="mpc-meta">
            Plan <code>{mpc.plan_id}</code> of {new Date(mpc.created_at).toLocaleString()}, {mpc.plan.length} intervals of {mpc.interval_minutes} minutes;{' '}
            <span data-testid="mpc-tracking-count">{mpc.tracking.length}</span> tracking points
            {drift !== null && `, measured SOC off the previous plans by ${fmt(drift, 3)} on average`}.
          </p>
          <Chart
            title="Latest plan against the measured state of charge"
            testId="mpc-chart"
            times={s.times}
            lines={[
              { label: 'Planned SOC', values: s.soc, color: PALETTE.green, width: 2, scale: 'soc' },
              { label: 'Planned battery kW (discharge +)', values: s.kw, color: PALETTE.blue, scale: 'kw', stepped: true, dash: [4, 4] },
              { label: 'Measured SOC', values: s.measured, color: PALETTE.black, markers: true, scale: 'soc' },
              { label: 'SOC the previous plan expected', values: s.expected, color: PALETTE.vermillion, markers: true, scale: 'soc' },
            ]}
            axes={[
              { scale: 'soc', label: 'SOC (0-1)', range: [0, 1] },
              { scale: 'kw', label: 'battery kW', side: 'right' },
            ]}
          />
        </div>
      )}
    </section>
  );
}
