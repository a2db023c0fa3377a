/**
 * Forecasts of a site: run one from the site's production model (GET /forecast) and draw it with its interval band
 * over the stored actuals, its model version and weather source beside it; a PV forecast from the site's specs
 * (POST /api/pv-forecast); and the stored past forecasts with their accuracy (GET /results).
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Chart, PALETTE } from '../chart';
import { ContextFields, useWorkContext } from '../context';
import { ActionForm, Field, fmt, Table } from '../ui';

interface Forecast {
  forecast_id: string;
  forecast_start: string;
  warnings?: string[];
  forecasts: { timestamp: string; predicted_power_kw: number; confidence_interval: { lower: number; upper: number } }[];
  metadata: { model_version: string; model_accuracy?: number; accuracy_metric?: string };
  weather?: { source: string };
}

interface PvForecast {
  specs_source: string;
  weather_source: string;
  tuned: boolean;
  energy_kwh: number;
  forecasts: { timestamp: string; p10_kw: number; p50_kw: number; p90_kw: number }[];
}

interface Results {
  results: {
    forecast_data: { forecast_id?: string; timestamp: string; predicted_value: number; actual_value: number | null; confidence_interval: [number, number] }[];
    forecasts: { forecast_id: string; model_version: string; generated_at: string; forecast_start: string; points: number; points_with_actuals: number; accuracy: number | null; interval_hit_rate: number | null }[];
  };
}

interface SeriesPoints {
  points: { timestamp: string; value: number | null }[];
}

const HOUR = 3_600_000;

/** The stored values over [from, to], aligned on `times` (null where none); empty when the site has none there. */
async function actualsOver(customer: string, site: string, times: number[], historyHours: number): Promise<Map<number, number | null>> {
  const start = new Date(times[0] - historyHours * HOUR).toISOString();
  const end = new Date(times[times.length - 1]).toISOString();
  try {
    const series = await api<SeriesPoints>('GET', `/api/sites/${encodeURIComponent(site)}/series?${new URLSearchParams({ customer_id: customer, start, end })}`);
    return new Map(series.points.map((p) => [Date.parse(p.timestamp), p.value]));
  } catch {
    return new Map();
  }
}

export function Forecasts() {
  const [context, setContext] = useWorkContext();
  const [hours, setHours] = useState('48');
  const [forecast, setForecast] = useState<{ f: Forecast; actuals: Map<number, number | null> } | null>(null);
  const [pv, setPv] = useState<PvForecast | null>(null);
  const [results, setResults] = useState<Results['results'] | null>(null);

  const chart = forecast && (() => {
    const points = forecast.f.forecasts;
    const forecastTimes = points.map((p) => Date.parse(p.timestamp));
    const history = [...forecast.actuals.keys()].filter((t) => t < forecastTimes[0]).sort((a, b) => a - b);
    const times = [...history, ...forecastTimes];
    const at = (t: number) => forecast.actuals.get(t) ?? null;
    const pad = history.map(() => null);
    return (
      <Chart
        title={`Forecast ${forecast.f.forecast_id} against actuals`}
        testId="forecast-chart"
        times={times}
        lines={[
          { label: 'Actual', values: times.map(at), color: PALETTE.black },
          { label: 'Forecast', values: [...pad, ...points.map((p) => p.predicted_power_kw)], color: PALETTE.blue, width: 2 },
          { label: 'Upper', values: [...pad, ...points.map((p) => p.confidence_interval.upper)], color: PALETTE.sky, dash: [4, 4], width: 1 },
          { label: 'Lower', values: [...pad, ...points.map((p) => p.confidence_interval.lower)], color: PALETTE.sky, dash: [4, 4], width: 1 },
        ]}
        bands={[{ upper: 2, lower: 3, fill: 'rgba(86,180,233,0.25)' }]}
        axes={[{ scale: 'y', label: 'kW' }]}
      />
    );
  })();

  return (
    <>
      <section aria-labelledby="run-h">
        <h2 id="run-h">Run a forecast</h2>
        <ActionForm
          label="Forecast"
          testId="forecast-form"
          run={async () => {
            const query = new URLSearchParams({ customer_id: context.customer_id, site_id: context.site_id, horizon_hours: hours });
            const f = await api<Forecast>('GET', `/forecast?${query}`);
            const actuals = await actualsOver(context.customer_id, context.site_id, f.forecasts.map((p) => Date.parse(p.timestamp)), 72);
            setForecast({ f, actuals });
          }}
        >
          <ContextFields context={context} onChange={setContext} />
          <Field label="Horizon (hours)" type="number" value={hours} onInput={setHours} />
        </ActionForm>
        {forecast && (
          <>
            <p data-testid="forecast-meta">
              Model <strong>{forecast.f.metadata.model_version}</strong> (accuracy {fmt(forecast.f.metadata.model_accuracy, 3)}, {forecast.f.metadata.accuracy_metric}) · weather: {forecast.f.weather?.source ?? 'none'}
            </p>
            {forecast.f.warnings?.map((w) => <p class="muted">{w}</p>)}
            {chart}
          </>
        )}
      </section>

      <section aria-labelledby="pv-h">
        <h2 id="pv-h">PV forecast from the site's specs</h2>
        <ActionForm
          label="PV forecast"
          run={async () => setPv(await api<PvForecast>('POST', '/api/pv-forecast', { customer_id: context.customer_id, site_id: context.site_id, horizon_hours: Number(hours), interval_minutes: 15 }))}
        >
          <p class="muted">Uses the specs set with PUT /api/sites/{'{site_id}'} (or inferred from the site's history).</p>
        </ActionForm>
        {pv && (
          <>
            <p>
              {fmt(pv.energy_kwh, 1)} kWh · specs {pv.specs_source} · weather {pv.weather_source} · {pv.tuned ? 'tuned to the site' : 'not tuned'}
            </p>
            <Chart
              title="PV forecast: P50 with the P10 to P90 band"
              times={pv.forecasts.map((p) => Date.parse(p.timestamp))}
              lines={[
                { label: 'P50', values: pv.forecasts.map((p) => p.p50_kw), color: PALETTE.orange, width: 2 },
                { label: 'P90', values: pv.forecasts.map((p) => p.p90_kw), color: PALETTE.yellow, dash: [4, 4], width: 1 },
                { label: 'P10', values: pv.forecasts.map((p) => p.p10_kw), color: PALETTE.yellow, dash: [4, 4], width: 1 },
              ]}
              bands={[{ upper: 1, lower: 2, fill: 'rgba(230,159,0,0.2)' }]}
              axes={[{ scale: 'y', label: 'kW' }]}
            />
          </>
        )}
      </section>

      <section aria-labelledby="past-h">
        <h2 id="past-h">Past forecasts and their accuracy</h2>
        <ActionForm label="Load past forecasts" run={async () => setResults((await api<Results>('GET', `/results?${new URLSearchParams({ customer_id: context.customer_id, site_id: context.site_id })}`)).results)} />
        {results && (
          <>
            <Table
              caption="Stored forecasts"
              testId="past-forecasts"
              rows={results.forecasts}
              columns={[
                ['Forecast', (r) => <code>{r.forecast_id}</code>],
                ['Model', (r) => r.model_version],
                ['Start', (r) => r.forecast_start.slice(0, 16).replace('T', ' ')],
                ['Points with actuals', (r) => `${r.points_with_actuals} / ${r.points}`],
                ['Accuracy', (r) => fmt(r.accuracy, 3)],
                ['Interval hit rate', (r) => fmt(r.interval_hit_rate, 3)],
              ]}
            />
            {results.forecast_data.length > 0 && (() => {
              const data = [...results.forecast_data].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
              return (
              <Chart
                title="Stored forecasts against the actuals"
                times={data.map((p) => Date.parse(p.timestamp))}
                lines={[
                  { label: 'Actual', values: data.map((p) => p.actual_value), color: PALETTE.black },
                  { label: 'Forecast', values: data.map((p) => p.predicted_value), color: PALETTE.blue },
                ]}
                axes={[{ scale: 'y', label: 'kW' }]}
              />
              );
            })()}
          </>
        )}
      </section>
    </>
  );
}
