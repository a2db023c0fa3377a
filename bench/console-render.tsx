/**
 * The page the console bench loads in Chromium: the console's own Chart component (console/src/chart.tsx) drawing
 * a year of 15-minute data with a band and flagged markers, and as the baseline the same points stroked as one
 * plain Canvas 2D path. Each returns its wall time from the call until the canvas exists and the next animation frame
 * has passed (drawn and painted).
 */
import { render } from 'preact';
import { Chart, PALETTE } from '../console/src/chart';

const N = 35_040;
const STEP_MS = 15 * 60_000;
const START = Date.UTC(2025, 0, 1);

/** A PV-like year: a daily bell scaled by season, seeded clouds, a few gaps and flagged values. */
function year(): { times: number[]; value: (number | null)[]; upper: number[]; lower: number[]; flagged: (number | null)[] } {
  let seed = 18;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const times: number[] = [];
  const value: (number | null)[] = [];
  const upper: number[] = [];
  const lower: number[] = [];
  const flagged: (number | null)[] = [];
  for (let i = 0; i < N; i++) {
    const t = START + i * STEP_MS;
    const hour = (t / 3_600_000) % 24;
    const season = 0.6 + 0.4 * Math.cos(((i / N) * 2 - 1) * Math.PI);
    const clear = Math.max(0, Math.sin(((hour - 6) / 12) * Math.PI)) * 10 * season;
    const v = clear * (0.5 + 0.5 * random());
    times.push(t);
    value.push(i % 997 < 8 ? null : v);
    upper.push(clear * 1.1);
    lower.push(clear * 0.3);
    flagged.push(i % 1499 === 0 ? v : null);
  }
  return { times, value, upper, lower, flagged };
}

const data = year();
const host = document.getElementById('host')!;
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
/** Preact runs the chart's effect (which builds the uPlot canvas) after a paint: wait for the canvas, then a frame. */
async function drawn(): Promise<void> {
  while (!host.querySelector('canvas')) await new Promise((resolve) => setTimeout(resolve, 0));
  await frame();
}

async function chart(): Promise<number> {
  const started = performance.now();
  render(
    <Chart
      title="A year of 15-minute data"
      times={data.times}
      lines={[
        { label: 'Value', values: data.value, color: PALETTE.blue },
        { label: 'Upper', values: data.upper, color: PALETTE.sky, width: 1 },
        { label: 'Lower', values: data.lower, color: PALETTE.sky, width: 1 },
        { label: 'Flagged', values: data.flagged, color: PALETTE.vermillion, markers: true },
      ]}
      bands={[{ upper: 1, lower: 2, fill: 'rgba(86,180,233,0.25)' }]}
    />,
    host,
  );
  await drawn();
  const ms = performance.now() - started;
  render(null, host);
  return ms;
}

async function baseline(): Promise<number> {
  const started = performance.now();
  const canvas = document.createElement('canvas');
  canvas.width = host.clientWidth;
  canvas.height = 280;
  host.appendChild(canvas);
  const context = canvas.getContext('2d')!;
  const max = Math.max(...data.upper);
  context.beginPath();
  data.value.forEach((v, i) => {
    const x = (i / N) * canvas.width;
    const y = canvas.height - ((v ?? 0) / max) * canvas.height;
    if (i === 0) context.moveTo(x, y);
    else context.lineTo(x, y);
  });
  context.stroke();
  await frame();
  const ms = performance.now() - started;
  canvas.remove();
  return ms;
}

Object.assign(window, { benchChart: chart, benchBaseline: baseline, benchPoints: N });
