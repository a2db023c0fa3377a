import { detectAnomalies, type Anomaly, type AssetSpec, type OutputSeries } from '../../../shared/domain/operations/detection';
import { diagnose, type Diagnosis } from '../../../shared/domain/operations/diagnosis';
import { localHour, SERF_EAST, serfEast, serfTime } from '../../fixtures/operations/load';

// Faults injected into the real SERF East series (NREL PVDAQ 50, Golden CO, 2016-07-01 to 2016-10-12, 15 min,
// local standard time UTC-7), rounded back to the fixture's 0.1 W. Confidences measured when the floors were set:
// soiling 0.87, shading 0.95, inverter_trip 0.90, flat top at 80% of the peak 1.00 (curtailment), setpoint
// curtailment 1.00, stuck reading 1.00 (sensor_fault), string fault 0.95, clean 0.35 (shading: July's late
// afternoons fall short of the model on four days, the foothills west of Golden).
const serf = serfEast();
const DAY_MS = 86_400_000;
const localDate = (t: number) => new Date(t - 7 * 3_600_000).toISOString().slice(0, 10);
const edit = (at: (t: number, p: number, i: number) => number): OutputSeries => ({ ...serf, powerKw: serf.powerKw.map((p, i) => Math.round(at(serf.t[i], p, i) * 1e4) / 1e4) });

function run(series: OutputSeries, asset: AssetSpec = SERF_EAST): { diagnosis: Diagnosis; anomalies: Anomaly[] } {
  const detection = detectAnomalies(series, asset);
  return { diagnosis: diagnose(detection.anomalies, series, asset, detection.expectedKw), anomalies: detection.anomalies };
}

const peak = Math.max(...serf.powerKw);
const faults: Record<string, () => OutputSeries> = {
  // -0.5%/day for 30 days from 2016-07-25, then washed off by rain.
  soiling: () =>
    edit((t, p) => {
      const days = (t - serfTime('2016-07-25T00:00')) / DAY_MS;
      return p > 0 && days > 0 && days < 30 ? p * (1 - 0.005 * days) : p;
    }),
  // Half the output lost from 07:00 to 08:30 every morning (a tree east of the array).
  shading: () => edit((t, p) => (localHour(t) >= 7 && localHour(t) < 8.5 && p > 0 ? p / 2 : p)),
  // No output from 11:45 to 13:15 on 2016-09-08, a clear day.
  trip: () => edit((t, p) => (t >= serfTime('2016-09-08T11:45') && t <= serfTime('2016-09-08T13:15') ? -0.003 : p)),
  // A flat top at 80% of the series' peak, every day.
  clipping: () => edit((_, p) => Math.min(p, 0.8 * peak)),
  // A 40% setpoint from 10:00 to 14:00 on three days, regulated within 0.05% of the rating.
  curtailment: () => edit((t, p, i) => (['2016-09-08', '2016-09-09', '2016-09-10'].includes(localDate(t)) && localHour(t) >= 10 && localHour(t) < 14 ? Math.min(p, 0.4 * 5.4 + 0.0027 * Math.sin(i)) : p)),
  // The 12:00 reading of 2016-09-16 repeated for six hours.
  flatline: () => {
    const k = serf.t.indexOf(serfTime('2016-09-16T12:00'));
    return edit((_, p, i) => (i > k && i < k + 24 ? serf.powerKw[k] : p));
  },
  // One string of three lost from 2016-09-15 on.
  string: () => edit((t, p) => (t >= serfTime('2016-09-15T00:00') && p > 0 ? (p * 2) / 3 : p)),
};

describe('diagnose on faults injected into SERF East', () => {
  const cases: [string, Diagnosis['faultFamily'], number][] = [
    ['soiling', 'soiling', 0.7],
    ['shading', 'shading', 0.8],
    ['trip', 'inverter_trip', 0.8],
    ['clipping', 'curtailment', 0.8],
    ['curtailment', 'curtailment', 0.8],
    ['flatline', 'sensor_fault', 0.8],
    ['string', 'string_fault', 0.8],
  ];
  for (const [fault, family, floor] of cases) {
    it(`diagnoses ${fault} as ${family} with confidence of at least ${floor}`, () => {
      const { diagnosis } = run(faults[fault]());

      expect(diagnosis.faultFamily).toBe(family);
      expect(diagnosis.confidence).toBeGreaterThanOrEqual(floor);
      expect(diagnosis.confidence).toBeLessThanOrEqual(1);
      expect(diagnosis.recommendedActions.length).toBeGreaterThan(0);
    });
  }

  it('gives the clean series no fault, or one with low confidence', () => {
    const { diagnosis } = run(serf);

    if (diagnosis.faultFamily !== 'none') expect(diagnosis.confidence).toBeLessThan(0.5);
  });

  it('cites the times and powers of an inverter trip, in the asset time zone, and calls it critical', () => {
    const { diagnosis } = run(faults.trip());

    // 11:45-13:15 MST is 12:45-14:15 in Denver's summer time.
    expect(diagnosis.rootCause).toMatch(/output 0\.00 kW from 12:45 to 14:15 America\/Denver on 2016-09-08 while 4\.\d kW was expected/);
    expect(diagnosis.severityLabel).toBe('critical');
    // Not addressed, the inverter stays off: the day's mean daylight output (about 3 kW in September) is at risk.
    expect(diagnosis.energyAtRiskKw).toBeGreaterThan(2.5);
    expect(diagnosis.energyAtRiskKw).toBeLessThan(3.5);
    expect(diagnosis.recommendedActions[0].priority).toBe('high');
  });

  it('reads a string fault as the fraction of the output left, and the day it dropped', () => {
    const { diagnosis } = run(faults.string());

    expect(diagnosis.evidence.step_date).toBe('2016-09-15');
    expect(Number(diagnosis.evidence.level_after) / Number(diagnosis.evidence.level_before)).toBeGreaterThan(0.6);
    expect(Number(diagnosis.evidence.level_after) / Number(diagnosis.evidence.level_before)).toBeLessThan(0.76);
  });

  it('reads soiling as a steady decline close to the injected rate, and sees the wash', () => {
    const { diagnosis } = run(faults.soiling());

    expect(Number(diagnosis.evidence.rate_per_day)).toBeLessThan(-0.003);
    expect(Number(diagnosis.evidence.rate_per_day)).toBeGreaterThan(-0.007);
    expect(diagnosis.evidence.recovered).toBe('yes');
  });

  it('puts the shading window in the morning and the loss near one half', () => {
    const { diagnosis } = run(faults.shading());

    // 07:00-08:30 MST is 08:00-09:30 MDT; the lowest-sun quarter hour is not judged.
    expect(diagnosis.evidence.window_start).toMatch(/^0[89]:/);
    expect(Number(diagnosis.evidence.ratio_median)).toBeGreaterThan(0.4);
    expect(Number(diagnosis.evidence.ratio_median)).toBeLessThan(0.7);
  });

  it("calls a flat top at the inverter's own rating clipping by design: no fault", () => {
    const capped = faults.clipping();
    const { diagnosis } = run(capped, { ...SERF_EAST, capacityKw: Math.max(...capped.powerKw) });

    expect(diagnosis.faultFamily).toBe('none');
    expect(diagnosis.severityLabel).toBe('normal');
    expect(diagnosis.rootCause).toMatch(/inverter's limit/);
  });
});

describe('diagnose, the rules around the families', () => {
  it('has nothing to diagnose without anomalies', () => {
    expect(diagnose([], serf, SERF_EAST, new Array<number>(serf.t.length).fill(0))).toMatchObject({ faultFamily: 'none', confidence: 0, severityLabel: 'normal', recommendedActions: [], rootCause: expect.stringMatching(/^Nothing to diagnose/) });
  });

  it('ranks actions by energy at risk, not by confidence', () => {
    // A stuck reading (sensor fault, the most certain, no energy lost) and a trip (energy lost).
    const k = serf.t.indexOf(serfTime('2016-09-16T12:00'));
    const both = edit((t, p, i) => (i > k && i < k + 24 ? serf.powerKw[k] : t >= serfTime('2016-09-08T11:45') && t <= serfTime('2016-09-08T13:15') ? -0.003 : p));

    const { diagnosis } = run(both);

    expect(diagnosis.faultFamily).toBe('sensor_fault');
    expect(diagnosis.evidence.candidates).toMatch(/inverter_trip/);
    expect(diagnosis.recommendedActions[0].action).toMatch(/inverter's event log/);
    expect(diagnosis.recommendedActions.at(-1)!.action).toMatch(/gap filling/);
  });

  it('counts the energy at risk of every diagnosed fault: a 4-hour trip beside a stuck reading is not 0', () => {
    const k = serf.t.indexOf(serfTime('2016-09-16T12:00'));
    const [tripFrom, tripTo] = [serfTime('2016-09-08T10:00'), serfTime('2016-09-08T13:45')];
    const tripOnly = edit((t, p) => (t >= tripFrom && t <= tripTo ? -0.003 : p));
    const both = edit((t, p, i) => (i > k && i < k + 24 ? serf.powerKw[k] : t >= tripFrom && t <= tripTo ? -0.003 : p));

    const alone = run(tripOnly).diagnosis;
    const { diagnosis, anomalies } = run(both);

    // The stuck reading is the more certain finding, the trip the one that costs energy: both are counted.
    expect(diagnosis.faultFamily).toBe('sensor_fault');
    expect(diagnosis.faults.map((f) => f.family).sort()).toEqual(['inverter_trip', 'sensor_fault']);
    expect(diagnosis.faults.find((f) => f.family === 'sensor_fault')!.energyAtRiskKw).toBe(0);
    expect(diagnosis.energyAtRiskKw).toBeGreaterThan(2.5);
    expect(diagnosis.energyAtRiskKw).toBeCloseTo(alone.energyAtRiskKw, 2);
    expect(diagnosis.severityLabel).toBe('critical');
    expect(diagnosis.rootCause).toMatch(/inverter trip also diagnosed, \d\.\d kW of output is at risk in all/);
    // Energy lost: the trip's four hours (about 17 kWh of a clear September noon), each anomaly once.
    const tripLost = anomalies.filter((a) => a.kind === 'zero_output').reduce((sum, a) => sum + a.energyAtRiskKwh, 0);
    expect(tripLost).toBeGreaterThan(15);
    expect(diagnosis.energyLostKwh).toBeCloseTo(tripLost, 1);
  });

  it('does not count twice the hours two faults share: a trip and a lost string combine below their sum', () => {
    const both = edit((t, p) => (t >= serfTime('2016-09-08T11:45') && t <= serfTime('2016-09-08T13:15') ? -0.003 : t >= serfTime('2016-09-15T00:00') && p > 0 ? (p * 2) / 3 : p));

    const { diagnosis } = run(both);

    const rates = Object.fromEntries(diagnosis.faults.map((f) => [f.family, f.energyAtRiskKw]));
    expect(Object.keys(rates)).toEqual(expect.arrayContaining(['inverter_trip', 'string_fault']));
    // A tripped inverter loses all of the output, the string's share included: the total is the larger, not the sum.
    expect(diagnosis.energyAtRiskKw).toBeLessThan(rates.inverter_trip + rates.string_fault - 0.1);
    expect(diagnosis.energyAtRiskKw).toBeGreaterThanOrEqual(Math.max(rates.inverter_trip, rates.string_fault) - 0.001);
  });

  it('lowers the confidence in a loss by the share of it that warmer weather explains', () => {
    const soiled = faults.soiling();
    // 20 degrees C, rising by a degree a day over the soiled month: 18 degrees warmer on average, 7% of power at 0.4%/degree.
    const temperatureC = soiled.t.map((t) => {
      const days = (t - serfTime('2016-07-25T00:00')) / DAY_MS;
      return days > 0 && days < 30 ? 20 + days : 20;
    });

    const without = run(soiled).diagnosis;
    const withHeat = run({ ...soiled, temperatureC }).diagnosis;

    expect(withHeat.faultFamily).toBe('soiling');
    expect(withHeat.confidence).toBeLessThan(0.75 * without.confidence);
    expect(withHeat.rootCause).toMatch(/warmer then than at other times: heat may explain \d+% of the loss/);
    expect(Number(withHeat.evidence.temperature_during_c)).toBeGreaterThan(Number(withHeat.evidence.temperature_elsewhere_c) + 10);
  });

  it('takes confidence from the evidence: a longer trip is more certain than a short one', () => {
    const trip = (to: string) => run(edit((t, p) => (t >= serfTime('2016-09-08T11:45') && t <= serfTime(to) ? -0.003 : p))).diagnosis;

    const short = trip('2016-09-08T12:15');
    const long = trip('2016-09-08T14:45');

    expect(short.faultFamily).toBe('inverter_trip');
    expect(long.faultFamily).toBe('inverter_trip');
    expect(long.confidence).toBeGreaterThan(short.confidence);
    expect(short.confidence).toBeLessThan(0.8);
  });
});
