import { NIGHT_CONSUMPTION_FLOOR } from '../../../shared/domain/ingest';
import { parseNumber, unitInHeader } from '../../../shared/domain/ingest/units';
import { standardiseText, triples } from './helpers';

describe('units in headers', () => {
  it.each([
    ['Power (W)', 'W'],
    ['power_kw', 'kW'],
    ['Energy [Wh]', 'Wh'],
    ['Total Yield (kWh)', 'kWh'],
    ['PAC [W]', 'W'],
    ['Production (Wh)', 'Wh'],
    ['Active power(kW)', 'kW'],
    ['Grid export (MWh)', 'MWh'],
    ['Irradiance(W/㎡)', 'W/m2'],
    ['Internal temperature(℃)', 'C'],
    ['module_temp_c', 'C'],
  ])('reads %j as %s', (header, symbol) => {
    expect(unitInHeader(header)?.symbol).toBe(symbol);
  });

  it.each(['ac_power', 'Phase A', 'measured_on', 'GridMs.TotW (Avg)'])('finds no unit in %j', (header) => {
    expect(unitInHeader(header)).toBeUndefined();
  });
});

describe('numbers as vendors write them', () => {
  it('reads decimal commas only in decimal-comma files, and thousands separators in both', () => {
    expect(parseNumber('1,5', true)).toBe(1.5);
    expect(parseNumber('1.234,5', true)).toBe(1234.5);
    expect(parseNumber('1,104', false)).toBe(1104);
    expect(parseNumber('1,234.5', false)).toBe(1234.5);
    expect(parseNumber('-0.25', false)).toBe(-0.25);
    expect(parseNumber('2.5 kW', false)).toBe(2.5);
  });

  it('refuses what is not a number, though JavaScript would read it', () => {
    for (const cell of ['', ' ', 'NaN', 'n/a', '0x1A', 'Infinity', '1,5', 'abc', '#WERT!', '3 Fault', '12abc']) expect(parseNumber(cell, false)).toBeNaN();
  });
});

describe('conversion to kW and kWh', () => {
  it('converts W to kW, and power to energy over the interval', async () => {
    const file = await standardiseText('time,Power (W)\n2024-06-01 10:00,1500\n2024-06-01 10:15,2500\n');

    expect(file.columns).toMatchObject({ valueKind: 'power', unit: 'W' });
    expect(triples(file.rows)).toEqual([
      ['2024-06-01T10:00:00.000Z', 1.5, 0.375],
      ['2024-06-01T10:15:00.000Z', 2.5, 0.625],
    ]);
  });

  it('converts Wh per 15 minutes to average kW', async () => {
    const file = await standardiseText('time,Energy [Wh]\n2024-06-01 10:00,250\n2024-06-01 10:15,500\n2024-06-01 10:30,0\n');

    expect(file.columns).toMatchObject({ valueKind: 'energy', unit: 'Wh' });
    expect(triples(file.rows)).toEqual([
      ['2024-06-01T10:00:00.000Z', 1, 0.25],
      ['2024-06-01T10:15:00.000Z', 2, 0.5],
      ['2024-06-01T10:30:00.000Z', 0, 0],
    ]);
  });

  it('converts MWh and MW', async () => {
    const energy = await standardiseText('time,Energy (MWh)\n2024-06-01 10:00,0.5\n2024-06-01 11:00,1.25\n');
    const power = await standardiseText('time,Output MW\n2024-06-01 10:00,0.5\n2024-06-01 11:00,1.25\n');

    expect(energy.rows.map((r) => [r.power_kw, r.energy_kwh])).toEqual([
      [500, 500],
      [1250, 1250],
    ]);
    expect(power.rows.map((r) => r.power_kw)).toEqual([500, 1250]);
  });

  it('differences a cumulative "total yield" counter and counts energy from a reset', async () => {
    const text = 'time,Total Yield (kWh)\n2024-06-01 10:00,1000\n2024-06-01 11:00,1002\n2024-06-01 12:00,1005.5\n2024-06-01 13:00,0.5\n2024-06-01 14:00,2.5\n';

    const file = await standardiseText(text);

    expect(file.columns.valueKind).toBe('cumulative_energy');
    expect(triples(file.rows)).toEqual([
      ['2024-06-01T10:00:00.000Z', null, null],
      ['2024-06-01T11:00:00.000Z', 2, 2],
      ['2024-06-01T12:00:00.000Z', 3.5, 3.5],
      ['2024-06-01T13:00:00.000Z', 0.5, 0.5],
      ['2024-06-01T14:00:00.000Z', 2, 2],
    ]);
    expect(file.notes).toContain('1 counter reset (the reading fell): energy counted from the reset');
  });

  it('recognises a counter by its values when the header does not say so, and the mean power across a gap', async () => {
    // A lifetime meter read in Wh every 15 minutes, with the 10:30 reading missing.
    const file = await standardiseText('time,meter Wh\n2024-06-01 10:00,8000000\n2024-06-01 10:15,8000500\n2024-06-01 10:45,8001500\n2024-06-01 11:00,8002000\n');

    expect(file.columns.valueKind).toBe('cumulative_energy');
    expect(file.notes).toContain('energy values only rise (or reset): read as a cumulative counter and differenced');
    expect(file.rows.map((r) => r.power_kw)).toEqual([null, 2, 2, 2]);
    expect(file.rows.map((r) => r.energy_kwh)).toEqual([null, 0.5, 0.5, 0.5]);
  });

  it('takes a counter dipping by a hair for jitter, not a reset', async () => {
    const file = await standardiseText('time,Total yield (kWh)\n2024-06-01 10:00,5000\n2024-06-01 11:00,5002\n2024-06-01 12:00,5001.99\n2024-06-01 13:00,5004\n');

    expect(file.columns.valueKind).toBe('cumulative_energy');
    expect(file.rows.map((r) => r.energy_kwh)).toEqual([null, 2, 0, 2.01]);
    expect(file.notes).toContain('the counter dipped slightly 1 time: no energy counted for that interval');
  });

  it('reads interval energy as such even when the header says "total"', async () => {
    const file = await standardiseText('time,Total energy (kWh)\n2024-06-01 10:00,1\n2024-06-01 11:00,3\n2024-06-01 12:00,2\n2024-06-01 13:00,2.5\n');

    expect(file.columns.valueKind).toBe('energy');
    expect(file.rows.map((r) => r.power_kw)).toEqual([1, 3, 2, 2.5]);
  });

  it('infers W or kW from the magnitude when the header names no unit, and says so', async () => {
    const watts = await standardiseText('time,ac_power\n2024-06-01 10:00,0\n2024-06-01 11:00,4200\n');
    const kilowatts = await standardiseText('time,ac_power\n2024-06-01 10:00,0\n2024-06-01 11:00,4.2\n');

    expect([watts.columns.unit, watts.rows[1].power_kw]).toEqual(['W', 4.2]);
    expect([kilowatts.columns.unit, kilowatts.rows[1].power_kw]).toEqual(['kW', 4.2]);
    expect(watts.notes).toContain('the header names no unit: W assumed from the magnitude (peak 4200 >= 1000; give capacityKw to confirm)');
  });

  it('uses the nameplate capacity to tell W from kW when the magnitude alone misleads', async () => {
    // 420 (below 1000) from a 0.5 kW microinverter is W; 2,000 from a 2.5 MW plant is kW.
    const micro = await standardiseText('time,power\n2024-06-01 10:00,0\n2024-06-01 11:00,420\n', { capacityKw: 0.5 });
    const plant = await standardiseText('time,power\n2024-06-01 10:00,0\n2024-06-01 11:00,2000\n', { capacityKw: 2500 });

    expect([micro.columns.unit, micro.rows[1].power_kw]).toEqual(['W', 0.42]);
    expect([plant.columns.unit, plant.rows[1].power_kw]).toEqual(['kW', 2000]);
    expect(plant.notes).toContain('the header names no unit: kW assumed from the magnitude (peak 2000 against a capacity of 2500 kW)');
  });

  it(`keeps night consumption down to -${NIGHT_CONSUMPTION_FLOOR * 100}% of the peak and rejects lower power as impossible`, async () => {
    const text = 'time,Power (W)\n2024-06-01 00:00,-5\n2024-06-01 01:00,-20\n2024-06-01 02:00,-21\n2024-06-01 12:00,1000\n';

    const file = await standardiseText(text);

    expect(file.rows.map((r) => r.power_kw)).toEqual([-0.005, -0.02, 1]);
    expect(file.rowsRejected).toBe(1);
    expect(file.rejectReasons).toEqual(['line 4: power -0.021 kW is below the night-consumption floor of -0.02 kW']);
  });

  it('converts channels: reactive power over the interval to kvarh, VA to kVA, percent PF, Fahrenheit', async () => {
    const text = 'time,Power (kW),Reactive power (var),Apparent power (VA),PF (%),Ambient temperature (°F)\n2024-06-01 10:00,2,400,2100,95,68\n2024-06-01 10:15,2,800,2200,96,77\n';

    const file = await standardiseText(text);

    expect(file.rows.map((r) => r.channels)).toEqual([
      { kvarh: 0.1, kva: 2.1, pf: 0.95, temperature_c: 20 },
      { kvarh: 0.2, kva: 2.2, pf: 0.96, temperature_c: 25 },
    ]);
  });
});
