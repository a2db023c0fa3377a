/**
 * Time-series charts drawn by uPlot (canvas; a year of 15-minute data draws in milliseconds). Drag across the
 * plot to zoom into a span, double-click to zoom out. A line may sit on its own scale (state of charge, price),
 * be drawn as markers only (flagged values, anomalies), and two lines may bound a shaded band (an interval).
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Okabe & Ito's palette, told apart with every common colour-vision deficiency. */
export const PALETTE = { blue: '#0072B2', orange: '#E69F00', green: '#009E73', vermillion: '#D55E00', purple: '#CC79A7', sky: '#56B4E9', yellow: '#F0E442', black: '#000000', grey: '#777777' } as const;

export interface Line {
  label: string;
  values: readonly (number | null)[];
  color: string;
  /** The scale (axis) the line is read on. @default 'y' */
  scale?: string;
  /** Markers only, no line: flagged or detected points. */
  markers?: boolean;
  fill?: string;
  dash?: number[];
  /** Drawn as steps (dispatch intervals). */
  stepped?: boolean;
  width?: number;
}

export interface Axis {
  scale: string;
  label: string;
  side?: 'left' | 'right';
  range?: [number, number];
}

export interface ChartProps {
  /** What the chart shows, for its caption and for screen readers. */
  title: string;
  /** Epoch milliseconds; plain numbers when `x` is given. */
  times: readonly number[];
  /** A numeric x axis (years, percent) instead of time. */
  x?: { label: string };
  lines: readonly Line[];
  /** Shaded bands between two lines, by their indexes in `lines` (upper, lower). */
  bands?: readonly { upper: number; lower: number; fill: string }[];
  axes?: readonly Axis[];
  height?: number;
  testId?: string;
}

function options(props: ChartProps, width: number): Options {
  const axes: Axis[] = props.axes?.length ? [...props.axes] : [{ scale: 'y', label: '' }];
  return {
    width,
    height: props.height ?? 280,
    cursor: { drag: { x: true, y: false } },
    scales: { x: { time: !props.x }, ...Object.fromEntries(axes.map((a) => [a.scale, a.range ? { range: a.range } : {}])) },
    series: [
      {},
      ...props.lines.map((line) => ({
        label: line.label,
        scale: line.scale ?? 'y',
        stroke: line.color,
        width: line.markers ? 0 : (line.width ?? 1.5),
        fill: line.fill,
        dash: line.dash,
        paths: line.markers ? () => null : line.stepped ? uPlot.paths.stepped!({ align: 1 }) : undefined,
        points: line.markers ? { show: true, size: 7, stroke: line.color, fill: line.color } : { show: false },
        spanGaps: false,
      })),
    ],
    bands: props.bands?.map((b) => ({ series: [b.upper + 1, b.lower + 1] as [number, number], fill: b.fill })),
    axes: [props.x ? { label: props.x.label } : {}, ...axes.map((a) => ({ scale: a.scale, label: a.label, side: a.side === 'right' ? 1 : 3, grid: { show: a.side !== 'right' } }))],
    legend: { show: true },
  };
}

export function Chart(props: ChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const data = [props.times.map((t) => (props.x ? t : t / 1000)), ...props.lines.map((l) => l.values as (number | null)[])] as AlignedData;
    const plot = new uPlot(options(props, Math.max(300, element.clientWidth)), data, element);
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(300, element.clientWidth), height: props.height ?? 280 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props]);
  return (
    <figure class="chart" data-testid={props.testId}>
      <figcaption>{props.title}</figcaption>
      <div ref={holder} role="img" aria-label={`${props.title}: ${props.lines.map((l) => l.label).join(', ')}; drag to zoom, double-click to reset`} />
    </figure>
  );
}
