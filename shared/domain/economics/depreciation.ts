/**
 * Depreciation schedules and their tax shield (ARCHITECTURE 7, 9). Deductions are by project year
 * (index 0 = year 1, the first tax year after the year-0 investment).
 */

export const DEPRECIATION_SCHEDULES = ['none', 'straight_line', 'macrs_5', 'macrs_7'] as const;
export type DepreciationSchedule = (typeof DEPRECIATION_SCHEDULES)[number];

/**
 * MACRS general depreciation system, half-year convention, in percent of the basis by recovery year:
 * IRS Publication 946, Appendix A, Table A-1 (5-year and 7-year property; 200% declining balance switching
 * to straight line). Each column sums to exactly 100.
 */
export const MACRS_PERCENTAGES: Readonly<Record<'macrs_5' | 'macrs_7', readonly number[]>> = {
  macrs_5: [20, 32, 19.2, 11.52, 11.52, 5.76],
  macrs_7: [14.29, 24.49, 17.49, 12.49, 8.93, 8.92, 8.93, 4.46],
};

/**
 * The depreciable basis when an investment tax credit is claimed: the cost less half the credit,
 * 26 U.S.C. 50(c)(1) and (c)(3) (energy credit property). The grant is not deducted here: its tax
 * treatment depends on the programme, and the caller states the grant as cash at year 0 only.
 */
export function depreciableBasis(capitalCost: number, taxCreditAmount: number): number {
  return capitalCost - 0.5 * taxCreditAmount;
}

/**
 * Deductions for years 1..lifetime. `straight_line` spreads the basis evenly over the project lifetime
 * (no half-year convention). A MACRS schedule longer than the project writes the undepreciated rest off
 * in the final year, as on disposal of the asset, so the deductions always sum to the basis.
 */
export function depreciationByYear(schedule: DepreciationSchedule, basis: number, lifetime: number): number[] {
  const deductions = new Array<number>(lifetime).fill(0);
  if (schedule === 'none') return deductions;
  if (schedule === 'straight_line') return deductions.map(() => basis / lifetime);
  const percentages = MACRS_PERCENTAGES[schedule];
  for (let i = 0; i < percentages.length; i++) {
    deductions[Math.min(i, lifetime - 1)] += (basis * percentages[i]) / 100;
  }
  return deductions;
}
