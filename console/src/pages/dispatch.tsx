/**
 * Battery dispatch: optimise from pasted forecasts or from the sites' stored forecasts (GET /forecast of a solar
 * and a load site), then a stacked chart of the flows (solar, battery, grid against the load), the state of
 * charge and the prices, the economics beside the no-battery baseline, a device's MPC plan against its measured
 * SOC (dispatch-mpc.tsx), and a real-time command with its checks.
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Chart, PALETTE } from '../chart';
import { useWorkContext } from '../context';
import { ActionForm, Area, ErrorBox, Field, fmt, Select, Table } from '../ui';
import { MpcPlanSection } from './dispatch-mpc';

interface Step {
  timestamp: string;
  battery_power: number;
  grid_power: number;
  load_served: number;
  soc: number;
  solar_kw: number;
  curtailed_kw: number;
  import_price: number;
  export_price: number;
}

interface Costs {
  net_cost: number;
  electricity_cost: number;
  total_revenue: number;
  demand_charge: number;
  peak_import_kw: number;
}

interface Optimised {
  optimization_result: {
    dispatch_schedule: Step[];
    economic_summary: Costs & { baseline_without_battery: Costs };
    operational_insights: string[];
    solver: { kind: string; milliseconds: number; status: string };
  };
}

interface Command {
  accepted: boolean;
  command_status: string;
  checks: { check: string; passed: boolean; detail: string }[];
}

// The README's example day, so the page computes something at once.
const EXAMPLE = {
  solar: '0,0,0,0,0,0,0,0.8,2.0,3.1,4.0,4.5,4.6,4.2,3.5,2.4,1.2,0.3,0,0,0,0,0,0',
  load: '12,11,11,11,12,14,18,22,24,25,25,26,26,25,25,26,28,32,35,33,28,22,17,14',
  price: '0.10,0.09,0.09,0.09,0.10,0.12,0.16,0.18,0.15,0.12,0.10,0.08,0.07,0.08,0.10,0.14,0.22,0.31,0.35,0.30,0.22,0.16,0.13,0.11',
};

/**
 * A forecast file: a header row naming the columns, then one row per interval; the columns whose names hold
 * "solar", "load" and "price" fill the three boxes (a timestamp column is ignored).
 */
export function forecastColumns(csv: string): Partial<Record<'solar' | 'load' | 'price', string>> {
  const [header, ...rows] = csv.trim().split(/\r?\n/).map((line) => line.split(','));
  const out: Partial<Record<'solar' | 'load' | 'price', string>> = {};
  for (const name of ['solar', 'load', 'price'] as const) {
    const column = header.findIndex((h) => h.toLowerCase().includes(name));
    if (column >= 0) out[name] = rows.map((r) => r[column]?.trim() ?? '').join(',');
  }
  if (!Object.keys(out).length) throw new Error('The file names no solar, load or price column in its first row');
  return out;
}

const numbers = (text: string) =>
  text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map(Number);

/** Cumulative sums of the parts, top of the stack first: uPlot fills each to zero, the later over the earlier. */
function stack(parts: number[][]): number[][] {
  const sums = parts.map((_, k) => parts[0].map((__, i) => parts.slice(0, k + 1).reduce((s, p) => s + p[i], 0)));
  return sums.reverse();
}

function FlowCharts({ steps }: { steps: Step[] }) {
  const times = steps.map((s) => Date.parse(s.timestamp));
  const solar = steps.map((s) => s.solar_kw - s.curtailed_kw);
  const discharge = steps.map((s) => Math.max(0, s.battery_power));
  const imported = steps.map((s) => Math.max(0, s.grid_power));
  const charge = steps.map((s) => Math.min(0, s.battery_power));
  const exported = steps.map((s) => Math.min(0, s.grid_power));
  const [supplyAll, supplyTwo, supplySolar] = stack([solar, discharge, imported]);
  const [sinkAll, sinkCharge] = stack([charge, exported]);
  return (
    <>
      <Chart
        title="Power flows, stacked: sources above zero, battery charging and export below, the load as a line"
        testId="flows-chart"
        times={times}
        lines={[
          { label: 'Grid import', values: supplyAll, color: PALETTE.grey, fill: 'rgba(119,119,119,0.45)', stepped: true },
          { label: 'Battery discharge', values: supplyTwo, color: PALETTE.green, fill: 'rgba(0,158,115,0.55)', stepped: true },
          { label: 'Solar', values: supplySolar, color: PALETTE.orange, fill: 'rgba(230,159,0,0.6)', stepped: true },
          { label: 'Export', values: sinkAll, color: PALETTE.purple, fill: 'rgba(204,121,167,0.5)', stepped: true },
          { label: 'Battery charge', values: sinkCharge, color: PALETTE.sky, fill: 'rgba(86,180,233,0.6)', stepped: true },
          { label: 'Load', values: steps.map((s) => s.load_served), color: PALETTE.black, width: 2, stepped: true },
        ]}
        axes={[{ scale: 'y', label: 'kW' }]}
      />
      <Chart
        title="State of charge and prices"
        testId="soc-chart"
        times={times}
        lines={[
          { label: 'State of charge', values: steps.map((s) => s.soc), color: PALETTE.green, width: 2, scale: 'soc' },
          { label: 'Import price', values: steps.map((s) => s.import_price), color: PALETTE.vermillion, scale: 'price', stepped: true },
          { label: 'Export price', values: steps.map((s) => s.export_price), color: PALETTE.blue, scale: 'price', dash: [4, 4], stepped: true },
        ]}
        axes={[
          { scale: 'soc', label: 'SOC (0-1)', range: [0, 1] },
          { scale: 'price', label: 'price per kWh', side: 'right' },
        ]}
      />
    </>
  );
}

export function Dispatch() {
  const [context] = useWorkContext();
  const [solar, setSolar] = useState(EXAMPLE.solar);
  const [load, setLoad] = useState(EXAMPLE.load);
  const [price, setPrice] = useState(EXAMPLE.price);
  const [battery, setBattery] = useState({ capacity: '10', power: '5', initial: '0.5' });
  const [sites, setSites] = useState({ solar: 'pv', load: 'load' });
  const [result, setResult] = useState<Optimised['optimization_result'] | null>(null);
  const [command, setCommand] = useState({ device_id: '', action: 'discharge', power_kw: '2.5', duration_minutes: '30', soc: '0.6', temperature_c: '25' });
  const [answer, setAnswer] = useState<Command | null>(null);
  const steps = numbers(load).length;
  const [fileError, setFileError] = useState<unknown>(null);

  return (
    <>
      <section aria-labelledby="opt-h">
        <h2 id="opt-h">Optimise a battery's dispatch</h2>
        <ActionForm
          label="Use the stored forecasts"
          run={async () => {
            const get = (site: string) => api<{ forecasts: { predicted_power_kw: number }[] }>('GET', `/forecast?${new URLSearchParams({ customer_id: context.customer_id, site_id: site, horizon_hours: '24' })}`);
            const [s, l] = await Promise.all([get(sites.solar), get(sites.load)]);
            setSolar(s.forecasts.map((p) => p.predicted_power_kw).join(','));
            setLoad(l.forecasts.map((p) => p.predicted_power_kw).join(','));
          }}
        >
          <Field label="Solar site" value={sites.solar} onInput={(v) => setSites({ ...sites, solar: v })} />
          <Field label="Load site" value={sites.load} onInput={(v) => setSites({ ...sites, load: v })} />
          <p class="muted">of customer {context.customer_id || '(set one on Sites and data)'}; fills the solar and load boxes below.</p>
        </ActionForm>
        <ActionForm
          label="Optimise"
          testId="dispatch-form"
          run={async () => {
            const response = await api<Optimised>('POST', '/api/dispatch-optimization', {
              forecasts: { solar_forecast: numbers(solar), load_forecast: numbers(load), price_forecast: numbers(price) },
              system_config: { battery_capacity_kwh: Number(battery.capacity), battery_power_kw: Number(battery.power), battery_min_soc: 0.1, battery_max_soc: 0.9, initial_soc: Number(battery.initial), roundtrip_efficiency: 0.9 },
              optimization_config: { objective: 'cost', time_horizon: steps, interval_minutes: 60 },
            });
            setResult(response.optimization_result);
          }}
        >
          <div class="field wide">
            <label for="forecast-file">Or load a forecast file (CSV with solar, load and price columns, one row per hour)</label>
            <input
              id="forecast-file"
              type="file"
              accept=".csv,text/csv"
              onChange={async (e) => {
                setFileError(null);
                const file = (e.target as HTMLInputElement).files?.[0];
                if (!file) return;
                try {
                  const columns = forecastColumns(await file.text());
                  if (columns.solar) setSolar(columns.solar);
                  if (columns.load) setLoad(columns.load);
                  if (columns.price) setPrice(columns.price);
                } catch (error) {
                  setFileError(error);
                }
              }}
            />
            <ErrorBox error={fileError} />
          </div>
          <Area label="Solar forecast, kW per hour (comma-separated)" value={solar} onInput={setSolar} rows={2} />
          <Area label="Load forecast, kW per hour" value={load} onInput={setLoad} rows={2} />
          <Area label="Import price per kWh, per hour" value={price} onInput={setPrice} rows={2} />
          <Field label="Battery kWh" type="number" value={battery.capacity} onInput={(v) => setBattery({ ...battery, capacity: v })} />
          <Field label="Battery kW" type="number" value={battery.power} onInput={(v) => setBattery({ ...battery, power: v })} />
          <Field label="Initial SOC (0-1)" type="number" value={battery.initial} onInput={(v) => setBattery({ ...battery, initial: v })} />
        </ActionForm>
      </section>

      {result && (
        <section aria-labelledby="plan-h" data-testid="dispatch-result">
          <h2 id="plan-h">The plan</h2>
          <FlowCharts steps={result.dispatch_schedule} />
          <Table
            caption="Economics against the same site without the battery"
            testId="economics"
            rows={[
              ['Net cost', result.economic_summary.net_cost, result.economic_summary.baseline_without_battery.net_cost],
              ['Electricity cost', result.economic_summary.electricity_cost, result.economic_summary.baseline_without_battery.electricity_cost],
              ['Export revenue', result.economic_summary.total_revenue, result.economic_summary.baseline_without_battery.total_revenue],
              ['Demand charge', result.economic_summary.demand_charge, result.economic_summary.baseline_without_battery.demand_charge],
              ['Peak import kW', result.economic_summary.peak_import_kw, result.economic_summary.baseline_without_battery.peak_import_kw],
            ] as [string, number, number][]}
            columns={[
              ['', (r) => r[0]],
              ['With battery', (r) => fmt(r[1])],
              ['Without battery', (r) => fmt(r[2])],
              ['Difference', (r) => fmt(r[1] - r[2])],
            ]}
          />
          <ul>
            {result.operational_insights.map((i) => (
              <li>{i}</li>
            ))}
          </ul>
        </section>
      )}

      <MpcPlanSection />

      <section aria-labelledby="rt-h">
        <h2 id="rt-h">Real-time command</h2>
        <ActionForm
          label="Send command"
          testId="realtime-form"
          run={async () =>
            setAnswer(
              await api<Command>('POST', '/api/realtime-dispatch', {
                device_id: command.device_id,
                command: { action: command.action, power_kw: Number(command.power_kw), duration_minutes: Number(command.duration_minutes), priority: 'high' },
                safety_checks: { soc_limits: true, temperature_check: true, grid_constraints: true },
                device_state: { soc: Number(command.soc), temperature_c: Number(command.temperature_c) },
              }),
            )
          }
        >
          <Field label="Device id" value={command.device_id} onInput={(v) => setCommand({ ...command, device_id: v })} required />
          <Select label="Action" value={command.action} options={['charge', 'discharge', 'idle']} onChange={(v) => setCommand({ ...command, action: v })} />
          <Field label="Power kW" type="number" value={command.power_kw} onInput={(v) => setCommand({ ...command, power_kw: v })} />
          <Field label="Minutes" type="number" value={command.duration_minutes} onInput={(v) => setCommand({ ...command, duration_minutes: v })} />
          <Field label="Measured SOC (0-1)" type="number" value={command.soc} onInput={(v) => setCommand({ ...command, soc: v })} />
          <Field label="Temperature °C" type="number" value={command.temperature_c} onInput={(v) => setCommand({ ...command, temperature_c: v })} />
        </ActionForm>
        {answer && (
          <Table
            caption={`Command ${answer.command_status}`}
            rows={answer.checks}
            columns={[
              ['Check', (c) => c.check],
              ['Passed', (c) => <span class={c.passed ? 'status-ok' : 'status-bad'}>{c.passed ? 'yes' : 'no'}</span>],
              ['Detail', (c) => c.detail],
            ]}
          />
        )}
      </section>
    </>
  );
}
