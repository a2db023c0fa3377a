/**
 * The investment recommendation: a verdict and the numbers behind it, in one sentence.
 *
 * Rules:
 * - "Not recommended" when NPV <= 0: at the discount rate the project does not add value.
 * - "Marginal" when NPV > 0 but NPV is <= 0 with revenue 20% lower: the value rests on the revenue forecast.
 * - "Recommended" when NPV > 0 and stays > 0 with revenue 20% lower.
 * The reasons always state the NPV sign, the IRR against the discount rate (or why there is no IRR, or
 * that there are several), the simple payback against the lifetime, and the NPV at -20% revenue.
 * IRR and payback inform but do not decide: NPV is the criterion that is right for every cash-flow shape.
 */
import type { SensitivityAnalysis } from './sensitivity';

export interface RecommendationFacts {
  npv: number;
  irr: number | null;
  irrNote?: string;
  /** How many IRRs exist (more than one for non-conventional flows). */
  irrCount: number;
  discountRate: number;
  paybackPeriod: number | null;
  lifetime: number;
  sensitivity: SensitivityAnalysis;
}

const money = (x: number) => x.toFixed(2);
const percent = (rate: number) => `${(rate * 100).toFixed(2)}%`;

export function investmentRecommendation(facts: RecommendationFacts): string {
  const { npv, irr, discountRate, paybackPeriod, lifetime } = facts;
  const stressedNpv = facts.sensitivity.revenue_sensitivity['-20%'].npv;
  const verdict = npv <= 0 ? 'Not recommended' : stressedNpv <= 0 ? 'Marginal' : 'Recommended';

  const reasons: string[] = [];
  const npvSign = npv > 0 ? 'positive' : npv < 0 ? 'negative' : 'zero';
  reasons.push(`NPV of ${money(npv)} at the ${percent(discountRate)} discount rate is ${npvSign}`);

  if (irr === null) {
    reasons.push(`there is no IRR (${facts.irrNote ?? 'none found'})`);
  } else {
    const comparison = irr > discountRate ? 'above' : irr < discountRate ? 'below' : 'equal to';
    const several = facts.irrCount > 1 ? ` (one of ${facts.irrCount} IRRs of these non-conventional flows)` : '';
    reasons.push(`IRR of ${percent(irr)}${several} is ${comparison} the discount rate`);
  }

  reasons.push(
    paybackPeriod === null
      ? `the investment is not paid back within the ${lifetime}-year lifetime`
      : `simple payback takes ${paybackPeriod.toFixed(1)} years of the ${lifetime}-year lifetime`,
  );

  reasons.push(
    stressedNpv > 0
      ? `NPV stays positive (${money(stressedNpv)}) with revenue 20% lower`
      : `NPV is not positive (${money(stressedNpv)}) with revenue 20% lower`,
  );
  return `${verdict}: ${reasons.join('; ')}.`;
}
