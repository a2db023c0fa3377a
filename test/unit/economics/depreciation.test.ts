import { depreciableBasis, depreciationByYear, MACRS_PERCENTAGES } from '../../../shared/domain/economics/depreciation';

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

describe('depreciation', () => {
  it('holds the IRS Publication 946 Table A-1 half-year percentages, each summing to 100%', () => {
    expect(MACRS_PERCENTAGES.macrs_5).toEqual([20, 32, 19.2, 11.52, 11.52, 5.76]);
    expect(MACRS_PERCENTAGES.macrs_7).toEqual([14.29, 24.49, 17.49, 12.49, 8.93, 8.92, 8.93, 4.46]);
    expect(sum(MACRS_PERCENTAGES.macrs_5)).toBeCloseTo(100, 10);
    expect(sum(MACRS_PERCENTAGES.macrs_7)).toBeCloseTo(100, 10);
  });

  it('deducts the MACRS percentages of the basis by year, then nothing', () => {
    const deductions = depreciationByYear('macrs_7', 1000, 10);

    expect(deductions.map((d) => Number(d.toFixed(9)))).toEqual([142.9, 244.9, 174.9, 124.9, 89.3, 89.2, 89.3, 44.6, 0, 0]);
  });

  it('writes the rest off in the final year when the project is shorter than the schedule', () => {
    // 5 years of MACRS 7: years 1-4 as tabled, year 5 takes 8.93 + 8.92 + 8.93 + 4.46 = 31.24%.
    const deductions = depreciationByYear('macrs_7', 1000, 5);

    expect(deductions.slice(0, 4).map((d) => Number(d.toFixed(9)))).toEqual([142.9, 244.9, 174.9, 124.9]);
    expect(deductions[4]).toBeCloseTo(312.4, 9);
    expect(sum(deductions)).toBeCloseTo(1000, 9);
  });

  it('spreads straight line evenly over the lifetime, and none deducts nothing', () => {
    expect(depreciationByYear('straight_line', 1000, 4)).toEqual([250, 250, 250, 250]);
    expect(depreciationByYear('none', 1000, 3)).toEqual([0, 0, 0]);
  });

  it('reduces the basis by half the investment tax credit (26 U.S.C. 50(c)(3))', () => {
    // A 30% ITC on 1000 is 300; the basis is 1000 - 150.
    expect(depreciableBasis(1000, 300)).toBe(850);
    expect(depreciableBasis(1000, 0)).toBe(1000);
  });
});
