/**
 * A retail tariff as utilities publish it (ARCHITECTURE 9): energy prices by time-of-use period (months,
 * weekdays, hours on the tariff's local clock), a flat price where no period matches, a monthly demand
 * charge on each month's peak import, and optional TOU demand charges on the peak within a window of each
 * month (the on-peak demand charge of US commercial tariffs). Resolved here into the per-interval prices
 * and the billing periods the dispatch programme takes.
 */
import { DispatchInputError, type DemandPeriod, type WindowDemandCharge } from './problem';

/** Which local times a period covers; an absent list covers every month, weekday or hour. */
export interface TariffWindow {
  /** 1 (January) to 12. */
  months?: readonly number[];
  /** ISO weekdays: 1 (Monday) to 7 (Sunday). */
  weekdays?: readonly number[];
  /** Hours of the local day the interval starts in, 0 to 23. */
  hours?: readonly number[];
}

export interface TariffPeriod extends TariffWindow {
  name?: string;
  importPrice: number;
  /** Falls back to the tariff's flat export price, then 0. */
  exportPrice?: number;
}

export interface TouDemandCharge extends TariffWindow {
  name?: string;
  /** Currency per kW of the month's peak import within the window. */
  chargePerKw: number;
}

export interface Tariff {
  currency?: string;
  /** IANA zone of the tariff's clock (default UTC). */
  timezone?: string;
  /** Flat import price, for intervals no period covers. */
  importPrice?: number;
  /** Flat export price (default 0: exported energy earns nothing unless the tariff says so). */
  exportPrice?: number;
  /** The first period that covers an interval prices it. */
  periods?: readonly TariffPeriod[];
  monthlyDemandChargePerKw?: number;
  touDemandCharges?: readonly TouDemandCharge[];
}

export interface TariffSeries {
  importPrice: number[];
  exportPrice: number[];
  /** The pricing period of each interval (its name, or `flat`). */
  periodName: string[];
  /** Calendar months (local) of the horizon, each charged its prorated monthly demand charge. */
  demandPeriods: DemandPeriod[];
  /** Each TOU demand charge in each month it applies, prorated alike. */
  windowDemandCharges: WindowDemandCharge[];
}

interface LocalTime {
  year: number;
  month: number;
  weekday: number;
  hour: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The local calendar of each interval start; Intl is asked once per UTC quarter-hour, where every zone's offset is constant. */
function localTimes(startMs: number, intervalMinutes: number, intervals: number, timezone: string): LocalTime[] {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, year: 'numeric', month: 'numeric', weekday: 'short', hour: 'numeric', hourCycle: 'h23' });
  } catch {
    throw new DispatchInputError(`tariff.timezone ${JSON.stringify(timezone)} is not an IANA time zone`);
  }
  const cache = new Map<number, LocalTime>();
  const at = (ms: number): LocalTime => {
    const slot = Math.floor(ms / 900_000);
    let local = cache.get(slot);
    if (!local) {
      const parts = Object.fromEntries(format.formatToParts(new Date(slot * 900_000)).map((p) => [p.type, p.value]));
      local = { year: Number(parts.year), month: Number(parts.month), weekday: WEEKDAYS[parts.weekday], hour: Number(parts.hour) };
      cache.set(slot, local);
    }
    return local;
  };
  return Array.from({ length: intervals }, (_, t) => at(startMs + t * intervalMinutes * 60_000));
}

const covers = (w: TariffWindow, l: LocalTime): boolean =>
  (!w.months?.length || w.months.includes(l.month)) && (!w.weekdays?.length || w.weekdays.includes(l.weekday)) && (!w.hours?.length || w.hours.includes(l.hour));

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Names the first month, weekday or hour outside its range. */
function checkWindow(w: TariffWindow, field: string) {
  const ranges: [keyof TariffWindow, number, number][] = [['months', 1, 12], ['weekdays', 1, 7], ['hours', 0, 23]];
  for (const [key, lo, hi] of ranges) {
    const bad = w[key]?.find((v) => !Number.isInteger(v) || v < lo || v > hi);
    if (bad !== undefined) throw new DispatchInputError(`${field}.${key} holds ${bad}; ${key} run from ${lo} to ${hi}`);
  }
}

export function resolveTariff(tariff: Tariff, startMs: number, intervalMinutes: number, intervals: number): TariffSeries {
  (tariff.periods ?? []).forEach((p, i) => checkWindow(p, `tariff.periods[${i}]`));
  (tariff.touDemandCharges ?? []).forEach((c, i) => checkWindow(c, `tariff.tou_demand_charges[${i}]`));
  const local = localTimes(startMs, intervalMinutes, intervals, tariff.timezone ?? 'UTC');
  const importPrice: number[] = [];
  const exportPrice: number[] = [];
  const periodName: string[] = [];
  local.forEach((l, t) => {
    const k = (tariff.periods ?? []).findIndex((p) => covers(p, l));
    const period = k >= 0 ? tariff.periods![k] : undefined;
    const price = period?.importPrice ?? tariff.importPrice;
    if (price === undefined) {
      throw new DispatchInputError(`tariff: no period covers interval ${t} (month ${l.month}, weekday ${l.weekday}, hour ${l.hour}) and there is no flat import_price`);
    }
    importPrice.push(price);
    exportPrice.push(period?.exportPrice ?? tariff.exportPrice ?? 0);
    periodName.push(period ? (period.name ?? `period_${k}`) : 'flat');
  });

  // Contiguous runs of one local month; each charge is prorated to the share of the month the run covers.
  const months: { start: number; end: number; share: number; label: string }[] = [];
  local.forEach((l, t) => {
    const label = `${l.year}-${String(l.month).padStart(2, '0')}`;
    if (months.at(-1)?.label === label) months.at(-1)!.end = t + 1;
    else months.push({ start: t, end: t + 1, share: 0, label });
  });
  for (const m of months) {
    const l = local[m.start];
    m.share = Math.min(1, ((m.end - m.start) * intervalMinutes) / (daysInMonth(l.year, l.month) * 1440));
  }
  const monthly = tariff.monthlyDemandChargePerKw ?? 0;
  const demandPeriods = months.map((m) => ({ start: m.start, chargePerKw: monthly * m.share }));
  const windowDemandCharges = (tariff.touDemandCharges ?? []).flatMap((charge, k) =>
    months.flatMap((m) => {
      const covered: number[] = [];
      for (let t = m.start; t < m.end; t++) if (covers(charge, local[t])) covered.push(t);
      return covered.length && charge.chargePerKw > 0 ? [{ label: `${charge.name ?? `tou_demand_${k}`} ${m.label}`, chargePerKw: charge.chargePerKw * m.share, intervals: covered }] : [];
    }),
  );
  return { importPrice, exportPrice, periodName, demandPeriods, windowDemandCharges };
}
