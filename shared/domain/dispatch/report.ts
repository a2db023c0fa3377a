/**
 * The answer of a solved dispatch: the schedule in the API's signs (ARCHITECTURE 9: `battery_power`
 * positive when discharging, `grid_power` positive when importing, `soc` a fraction), the economics
 * measured on the solved flows against the solved no-battery baseline, and insights read off the schedule.
 */
import { demandPeriodsOf, hasDemandCharge, hoursPerInterval, terminalFloorKwh, type DispatchProblem } from './problem';
import type { DispatchOutcome, FlexibleFlows, IntervalFlows, SolvedDispatch } from './optimise';
import { roundHalfUp } from '../rounding';

/** kW below which a flow is reported as none. */
const ACTIVE_KW = 1e-4;
/** Fraction of a limit within which the limit counts as binding. */
const BINDING = 1e-6;

export interface ScheduleRow {
  timestamp: string;
  battery_power: number;
  grid_power: number;
  load_served: number;
  soc: number;
  action: 'charge' | 'discharge' | 'idle';
  grid_action: 'import' | 'export' | 'none';
  solar_kw: number;
  curtailed_kw: number;
  import_price: number;
  export_price: number;
  /** With flexible loads: what they draw in all (kW), and each one's series. */
  flexible_kw?: number;
  ev_kw?: number;
  deferrable_kw?: Record<string, number>;
  thermal_kw?: Record<string, number>;
  indoor_temp_c?: Record<string, number>;
}

export interface FlexibleLoadSummary {
  id: string;
  kind: 'ev' | 'deferrable' | 'thermal';
  energy_kwh: number;
  /** Its energy priced at each interval's import price (what it would cost drawn from the grid). */
  cost: number;
  average_price: number;
  /** Thermal loads: kelvin-hours outside the comfort band (0 when the band held). */
  comfort_violation_kh?: number;
}

export interface WindowDemandChargeSummary {
  label: string;
  charge_per_kw: number;
  peak_import_kw: number;
  baseline_peak_import_kw: number | null;
  demand_charge: number;
}

export interface SiteEconomics {
  total_revenue: number;
  electricity_cost: number;
  demand_charge: number;
  net_cost: number;
  peak_import_kw: number;
  degradation_cost: number;
}

export interface DemandChargePeriod {
  start: string;
  end: string;
  charge_per_kw: number;
  peak_import_kw: number;
  baseline_peak_import_kw: number | null;
  demand_charge: number;
}

export interface DispatchReport {
  dispatch_schedule: ScheduleRow[];
  economic_summary: {
    total_revenue: number;
    electricity_cost: number;
    net_benefit: number;
    peak_shaving_savings: number;
    net_cost: number;
    peak_import_kw: number;
    demand_charge: number;
    /** Each billing period's peak and charge, with and without the battery (only with a demand charge). */
    demand_charge_periods?: DemandChargePeriod[];
    tou_demand_charges?: WindowDemandChargeSummary[];
    /** Battery wear at degradation_cost_per_kwh, in net_cost (only when given). */
    degradation_cost?: number;
    flexible_loads?: FlexibleLoadSummary[];
    baseline_without_battery: SiteEconomics | null;
  };
  operational_insights: string[];
  solver: SolvedDispatch['solver'];
}

const money = (v: number) => v.toFixed(2);
const kw = (v: number) => `${v.toFixed(1)} kW`;

/** Each billing period's peak import (kW) and its rate. */
function periodPeaks(p: DispatchProblem, flows: readonly IntervalFlows[]) {
  return demandPeriodsOf(p).map((period) => {
    let peak = 0;
    for (let t = period.start; t < period.end; t++) peak = Math.max(peak, flows[t].import);
    return { ...period, peak };
  });
}

/** Each TOU demand charge's peak import within its window. */
const windowPeaks = (p: DispatchProblem, flows: readonly IntervalFlows[]) =>
  (p.windowDemandCharges ?? []).map((w) => ({ ...w, peak: w.intervals.reduce((a, t) => Math.max(a, flows[t].import), 0) }));

/** Every demand charge of the problem with its peak: billing periods, then TOU windows. */
const chargedPeaks = (p: DispatchProblem, flows: readonly IntervalFlows[]) => [...periodPeaks(p, flows), ...windowPeaks(p, flows)];

/** The demand charge the battery avoids: each charge's rate times the fall of its peak. */
function peakShavingSavings(optimised: SolvedDispatch, baseline: SolvedDispatch): number {
  const before = chargedPeaks(baseline.problem, baseline.flows);
  return chargedPeaks(optimised.problem, optimised.flows).reduce((a, x, k) => a + x.chargePerKw * (before[k].peak - x.peak), 0);
}

export function siteEconomics(s: SolvedDispatch): SiteEconomics {
  const p = s.problem;
  const dt = hoursPerInterval(p);
  const revenue = s.flows.reduce((a, f, t) => a + dt * p.exportPrice[t] * f.export, 0);
  const energyCost = s.flows.reduce((a, f, t) => a + dt * p.importPrice[t] * f.import, 0);
  const peak = s.flows.reduce((a, f) => Math.max(a, f.import), 0);
  const demand = chargedPeaks(p, s.flows).reduce((a, x) => a + x.chargePerKw * x.peak, 0);
  const wear = s.flows.reduce((a, f) => a + dt * (p.degradationCostPerKwh ?? 0) * f.discharge, 0);
  return {
    total_revenue: roundHalfUp(revenue, 6),
    electricity_cost: roundHalfUp(energyCost + demand, 6),
    demand_charge: roundHalfUp(demand, 6),
    net_cost: roundHalfUp(energyCost + demand + wear - revenue, 6),
    peak_import_kw: roundHalfUp(peak, 6),
    degradation_cost: roundHalfUp(wear, 6),
  };
}

export function dispatchReport(outcome: DispatchOutcome, startMs: number): DispatchReport {
  const { optimised, baseline } = outcome;
  const p = optimised.problem;
  const cap = p.battery.capacityKwh;
  const stepMs = p.intervalMinutes * 60_000;
  const schedule = optimised.flows.map((f, t): ScheduleRow => {
    const battery = f.discharge - f.charge;
    const grid = f.import - f.export;
    return {
      timestamp: new Date(startMs + t * stepMs).toISOString(),
      battery_power: roundHalfUp(battery, 6),
      grid_power: roundHalfUp(grid, 6),
      load_served: p.loadKw[t],
      soc: roundHalfUp(Math.min(p.battery.maxSoc, Math.max(p.battery.minSoc, f.soc / cap)), 6),
      action: battery < -ACTIVE_KW ? 'charge' : battery > ACTIVE_KW ? 'discharge' : 'idle',
      grid_action: grid > ACTIVE_KW ? 'import' : grid < -ACTIVE_KW ? 'export' : 'none',
      solar_kw: p.solarKw[t],
      curtailed_kw: roundHalfUp(f.curtail, 6),
      import_price: p.importPrice[t],
      export_price: p.exportPrice[t],
      ...(optimised.flexible ? flexibleRow(optimised.flexible, t) : {}),
    };
  });
  const withBattery = siteEconomics(optimised);
  const without = baseline && siteEconomics(baseline);
  return {
    dispatch_schedule: schedule,
    economic_summary: {
      total_revenue: withBattery.total_revenue,
      electricity_cost: withBattery.electricity_cost,
      net_benefit: without ? roundHalfUp(without.net_cost - withBattery.net_cost, 6) : 0,
      peak_shaving_savings: baseline ? roundHalfUp(peakShavingSavings(optimised, baseline), 6) : 0,
      net_cost: withBattery.net_cost,
      peak_import_kw: withBattery.peak_import_kw,
      demand_charge: withBattery.demand_charge,
      ...(hasDemandCharge(p) ? { demand_charge_periods: demandChargePeriods(optimised, baseline, startMs) } : {}),
      ...(p.windowDemandCharges?.length ? { tou_demand_charges: touDemandCharges(optimised, baseline) } : {}),
      ...(p.degradationCostPerKwh ? { degradation_cost: withBattery.degradation_cost } : {}),
      ...(optimised.flexible ? { flexible_loads: flexibleSummary(optimised) } : {}),
      baseline_without_battery: without ?? null,
    },
    operational_insights: insights(optimised, withBattery, without),
    solver: optimised.solver,
  };
}

function demandChargePeriods(optimised: SolvedDispatch, baseline: SolvedDispatch | undefined, startMs: number): DemandChargePeriod[] {
  const stepMs = optimised.problem.intervalMinutes * 60_000;
  const before = baseline && periodPeaks(baseline.problem, baseline.flows);
  return periodPeaks(optimised.problem, optimised.flows).map((x, k) => ({
    start: new Date(startMs + x.start * stepMs).toISOString(),
    end: new Date(startMs + x.end * stepMs).toISOString(),
    charge_per_kw: roundHalfUp(x.chargePerKw, 6),
    peak_import_kw: roundHalfUp(x.peak, 6),
    baseline_peak_import_kw: before ? roundHalfUp(before[k].peak, 6) : null,
    demand_charge: roundHalfUp(x.chargePerKw * x.peak, 6),
  }));
}

const r6 = (v: number) => roundHalfUp(v, 6);
const byId = (entries: { id: string; value: number }[]) => Object.fromEntries(entries.map((e) => [e.id, r6(e.value)]));

function flexibleRow(f: FlexibleFlows, t: number): Partial<ScheduleRow> {
  const total = (f.ev?.[t] ?? 0) + f.deferrable.reduce((a, d) => a + d.kw[t], 0) + f.thermal.reduce((a, h) => a + h.kw[t], 0);
  return {
    flexible_kw: r6(total),
    ...(f.ev ? { ev_kw: r6(f.ev[t]) } : {}),
    ...(f.deferrable.length ? { deferrable_kw: byId(f.deferrable.map((d) => ({ id: d.id, value: d.kw[t] }))) } : {}),
    ...(f.thermal.length
      ? { thermal_kw: byId(f.thermal.map((h) => ({ id: h.id, value: h.kw[t] }))), indoor_temp_c: byId(f.thermal.map((h) => ({ id: h.id, value: h.temperatureC[t] }))) }
      : {}),
  };
}

function flexibleSummary(s: SolvedDispatch): FlexibleLoadSummary[] {
  const p = s.problem;
  const dt = hoursPerInterval(p);
  const f = s.flexible!;
  const summary = (id: string, kind: FlexibleLoadSummary['kind'], kw: Float64Array): FlexibleLoadSummary => {
    const energy = kw.reduce((a, v) => a + v * dt, 0);
    const cost = kw.reduce((a, v, t) => a + v * dt * p.importPrice[t], 0);
    return { id, kind, energy_kwh: r6(energy), cost: r6(cost), average_price: r6(energy > 0 ? cost / energy : 0) };
  };
  return [
    ...(f.ev ? [summary('ev', 'ev', f.ev)] : []),
    ...f.deferrable.map((d) => summary(d.id, 'deferrable', d.kw)),
    ...f.thermal.map((h) => ({ ...summary(h.id, 'thermal', h.kw), comfort_violation_kh: r6(h.violationKh) })),
  ];
}

function touDemandCharges(optimised: SolvedDispatch, baseline: SolvedDispatch | undefined): WindowDemandChargeSummary[] {
  const before = baseline && windowPeaks(baseline.problem, baseline.flows);
  return windowPeaks(optimised.problem, optimised.flows).map((w, k) => ({
    label: w.label,
    charge_per_kw: r6(w.chargePerKw),
    peak_import_kw: r6(w.peak),
    baseline_peak_import_kw: before ? r6(before[k].peak) : null,
    demand_charge: r6(w.chargePerKw * w.peak),
  }));
}

const weightedPrice = (flows: IntervalFlows[], prices: readonly number[], of: (f: IntervalFlows) => number) => {
  const energy = flows.reduce((a, f) => a + of(f), 0);
  return energy > 0 ? flows.reduce((a, f, t) => a + of(f) * prices[t], 0) / energy : 0;
};

function insights(s: SolvedDispatch, withBattery: SiteEconomics, without: SiteEconomics | undefined): string[] {
  const p = s.problem;
  const b = p.battery;
  const dt = hoursPerInterval(p);
  const flows = s.flows;
  const usable = (b.maxSoc - b.minSoc) * b.capacityKwh;
  const out: string[] = [];

  const discharged = flows.reduce((a, f) => a + f.discharge * dt, 0);
  const charged = flows.reduce((a, f) => a + f.charge * dt, 0);
  out.push(`Battery throughput: ${charged.toFixed(1)} kWh charged, ${discharged.toFixed(1)} kWh discharged, ${(discharged / usable).toFixed(2)} equivalent full cycles of the ${usable.toFixed(1)} kWh usable range`);

  const charging = flows.filter((f) => f.charge > ACTIVE_KW).length * dt;
  const discharging = flows.filter((f) => f.discharge > ACTIVE_KW).length * dt;
  if (charging > 0 && discharging > 0) {
    const buy = weightedPrice(flows, p.importPrice, (f) => f.charge);
    const sell = weightedPrice(flows, p.importPrice, (f) => f.discharge);
    out.push(`Arbitrage: charges for ${charging.toFixed(2)} h at an average price of ${buy.toFixed(4)}/kWh and discharges for ${discharging.toFixed(2)} h at ${sell.toFixed(4)}/kWh`);
  } else if (charging === 0 && discharging === 0) {
    const spread = Math.max(...p.importPrice) - Math.min(...p.importPrice);
    out.push(`The battery stays idle: the price spread of ${spread.toFixed(4)}/kWh and the solar surplus do not pay for the ${((1 - b.roundtripEfficiency) * 100).toFixed(1)}% round-trip loss`);
  }

  const binding: string[] = [];
  const count = (label: string, hit: (f: IntervalFlows, t: number) => boolean) => {
    const k = flows.filter(hit).length;
    if (k) binding.push(`${label} in ${k} interval${k === 1 ? '' : 's'}`);
  };
  count('battery power limit', (f) => Math.max(f.charge, f.discharge) >= b.powerKw * (1 - BINDING) - ACTIVE_KW);
  count('SOC at maximum', (f) => f.soc >= b.maxSoc * b.capacityKwh * (1 - BINDING) - ACTIVE_KW);
  count('SOC at minimum', (f) => f.soc <= b.minSoc * b.capacityKwh * (1 + BINDING) + ACTIVE_KW);
  if (Number.isFinite(p.exportLimitKw)) count('grid export limit', (f) => f.export >= p.exportLimitKw * (1 - BINDING) - ACTIVE_KW);
  if (Number.isFinite(p.importLimitKw)) count('grid import limit', (f) => f.import >= p.importLimitKw * (1 - BINDING) - ACTIVE_KW);
  out.push(binding.length ? `Binding constraints: ${binding.join('; ')}` : 'No battery or grid limit is binding');

  const floor = terminalFloorKwh(p);
  const last = flows[flows.length - 1].soc;
  if (p.terminalSoc !== 'free' && floor > b.minSoc * b.capacityKwh && last <= floor + ACTIVE_KW) {
    out.push(`The final SOC is held at ${(floor / b.capacityKwh).toFixed(3)}: the battery may not be emptied for free at the end of the horizon`);
  }

  const curtailed = flows.reduce((a, f) => a + f.curtail * dt, 0);
  if (curtailed > ACTIVE_KW) {
    const why = [
      Number.isFinite(p.exportLimitKw) && flows.some((f) => f.curtail > ACTIVE_KW && f.export >= p.exportLimitKw * (1 - BINDING) - ACTIVE_KW) ? `export is limited to ${kw(p.exportLimitKw)}` : '',
      p.exportPrice.some((price, t) => price < 0 && flows[t].curtail > ACTIVE_KW) ? 'exporting at a negative price would cost money' : '',
    ].filter(Boolean);
    out.push(`Curtails ${curtailed.toFixed(1)} kWh of solar${why.length ? `: ${why.join(' and ')}` : ''}`);
  }

  const negative = p.importPrice.filter((price) => price < 0).length;
  if (negative) {
    const absorbed = flows.reduce((a, f, t) => a + (p.importPrice[t] < 0 ? f.charge * dt : 0), 0);
    out.push(`Negative prices in ${negative} interval${negative === 1 ? '' : 's'}: the battery absorbs ${absorbed.toFixed(1)} kWh there`);
  }

  if ((hasDemandCharge(p) || p.windowDemandCharges?.length) && without) {
    out.push(
      `Peak import ${kw(withBattery.peak_import_kw)} against ${kw(without.peak_import_kw)} without the battery: the demand charge falls from ${money(without.demand_charge)} to ${money(withBattery.demand_charge)}`,
    );
  }
  if (without) out.push(`Net cost ${money(withBattery.net_cost)} against ${money(without.net_cost)} for the same site without the battery`);
  else out.push('Without the battery the load cannot be served within grid_import_limit, so there is no baseline to compare with');

  const solver = s.solver;
  if (solver.status === 'time_limit') {
    out.push(`HiGHS stopped at its time limit with a schedule within ${((solver.mip_gap ?? 0) * 100).toFixed(3)}% of the best bound: the flexible loads' on/off choices were not all proven optimal`);
  }
  out.push(
    `Solved${solver.status === 'optimal' ? ' to optimality' : ''} by HiGHS in ${solver.milliseconds.toFixed(0)} ms: ${solver.kind} with ${solver.variables} variables and ${solver.constraints} constraints${solver.binaries ? `, ${solver.binaries} binaries (no simultaneous flows; flexible loads on or off)` : ''}`,
  );
  return out;
}
