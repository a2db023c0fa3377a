/** Demand charges per billing period: a monthly tariff prorated to the part of each month a horizon covers. */
import { monthlyDemandPeriods } from '../../../shared/domain/dispatch/billing';

const at = (iso: string) => Date.parse(iso);

describe('monthlyDemandPeriods', () => {
  it("charges a day inside July one thirty-first of the monthly tariff", () => {
    expect(monthlyDemandPeriods(at('2026-07-10T00:00:00Z'), 60, 24, 15)).toEqual([{ start: 0, chargePerKw: expect.closeTo(15 / 31, 12) }]);
  });

  it('splits a day across a month boundary into the two months, each by its own length', () => {
    expect(monthlyDemandPeriods(at('2026-06-30T22:00:00Z'), 60, 24, 15)).toEqual([
      { start: 0, chargePerKw: expect.closeTo((15 * 2) / (30 * 24), 12) },
      { start: 2, chargePerKw: expect.closeTo((15 * 22) / (31 * 24), 12) },
    ]);
  });

  it('charges every whole month of a year the full monthly tariff, once', () => {
    const periods = monthlyDemandPeriods(at('2027-01-01T00:00:00Z'), 60, 8760, 15);
    expect(periods).toHaveLength(12);
    expect(periods.map((p) => p.start)).toEqual([0, 744, 1416, 2160, 2880, 3624, 4344, 5088, 5832, 6552, 7296, 8016]);
    for (const p of periods) expect(p.chargePerKw).toBeCloseTo(15, 12);
  });

  it('puts an interval in the month it starts in, at 15-minute steps too', () => {
    // 23:45 on 28 February 2027 starts a quarter hour of February; the next one is March's.
    const periods = monthlyDemandPeriods(at('2027-02-28T23:45:00Z'), 15, 3, 28);
    expect(periods).toEqual([
      { start: 0, chargePerKw: expect.closeTo((28 * 0.25) / (28 * 24), 12) },
      { start: 1, chargePerKw: expect.closeTo((28 * 0.5) / (31 * 24), 12) },
    ]);
  });
});
