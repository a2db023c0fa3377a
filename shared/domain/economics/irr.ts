/**
 * Internal rate of return by bracketed root finding (ARCHITECTURE 7: null when none exists). NPV(r) is
 * sampled on a fixed grid over (-99%, 1000%]; each sign change between neighbouring points brackets a root,
 * refined by bisection. A non-conventional series (several sign changes) can have several IRRs (Lorie &
 * Savage 1955); all are found, and the one nearest the discount rate is reported with a note.
 * Limits, by construction: two roots closer than one grid step (0.1 point below 100%, 1 point above) or a
 * root where NPV touches zero without crossing are not found.
 */

/** The searched interval of rates, as fractions: lower bound exclusive, upper inclusive. */
export const IRR_SEARCH_LOWER = -0.99;
export const IRR_SEARCH_UPPER = 10;
/** Rates returned are within this of a true root. */
export const IRR_TOLERANCE = 1e-10;

const FINE_STEP = 0.001;
const FINE_UNTIL = 1;
const COARSE_STEP = 0.01;

/** Grid points built from integer multiples (no accumulated rounding), ascending. */
const GRID: readonly number[] = (() => {
  const points: number[] = [];
  const fine = Math.round((FINE_UNTIL - IRR_SEARCH_LOWER) / FINE_STEP);
  for (let i = 1; i <= fine; i++) points.push(IRR_SEARCH_LOWER + i * FINE_STEP);
  const coarse = Math.round((IRR_SEARCH_UPPER - FINE_UNTIL) / COARSE_STEP);
  for (let i = 1; i <= coarse; i++) points.push(FINE_UNTIL + i * COARSE_STEP);
  return points;
})();

export interface IrrResult {
  /** The reported IRR as a fraction, or null when none exists in the searched range. */
  irr: number | null;
  /** Every IRR found, ascending. */
  rates: number[];
  /** Why `irr` is null, or which of several IRRs was reported; absent for a single IRR. */
  note?: string;
}

/** NPV by Horner's rule in v = 1 / (1 + r): the same sum as `netPresentValue`, without a power per term. */
function npvAt(flows: readonly number[], rate: number): number {
  const v = 1 / (1 + rate);
  let acc = 0;
  for (let t = flows.length - 1; t >= 0; t--) acc = acc * v + flows[t];
  return acc;
}

const percent = (rate: number) => `${(rate * 100).toFixed(2)}%`;

function bisect(flows: readonly number[], low: number, high: number, fLow: number): number {
  let a = low;
  let b = high;
  let fa = fLow;
  // The bracket starts at most one grid step wide; 60 halvings take it far below the tolerance.
  for (let i = 0; i < 60 && b - a > IRR_TOLERANCE / 100; i++) {
    const mid = (a + b) / 2;
    const fm = npvAt(flows, mid);
    if (fm === 0) return mid;
    if (Math.sign(fm) === Math.sign(fa)) {
      a = mid;
      fa = fm;
    } else {
      b = mid;
    }
  }
  return (a + b) / 2;
}

/** Every rate in (-0.99, 10] at which the NPV of `flows` (flows[0] at year 0) changes sign, ascending. */
export function internalRatesOfReturn(flows: readonly number[]): number[] {
  const rates: number[] = [];
  let previous = GRID[0];
  let fPrevious = npvAt(flows, previous);
  if (fPrevious === 0) rates.push(previous);
  for (let i = 1; i < GRID.length; i++) {
    const r = GRID[i];
    const f = npvAt(flows, r);
    if (f === 0) rates.push(r);
    else if (fPrevious !== 0 && Math.sign(f) !== Math.sign(fPrevious)) rates.push(bisect(flows, previous, r, fPrevious));
    previous = r;
    fPrevious = f;
  }
  return rates;
}

/**
 * The IRR of `flows`, with the reason when there is none. With several IRRs, the one nearest
 * `discountRate` is reported: it is the one that decides the accept/reject reading closest to the
 * hurdle, though NPV is the sounder guide for such flows (Brealey, Myers & Allen, ch. 5).
 */
export function internalRateOfReturn(flows: readonly number[], discountRate: number): IrrResult {
  if (flows.every((f) => f === 0)) return { irr: null, rates: [], note: 'every cash flow is zero, so every rate gives NPV 0 and no IRR is defined' };
  if (flows.every((f) => f <= 0)) {
    return { irr: null, rates: [], note: 'no cash flow is positive: NPV is negative at every discount rate, so no IRR exists' };
  }
  if (flows.every((f) => f >= 0)) {
    return { irr: null, rates: [], note: 'no cash flow is negative: NPV is positive at every discount rate, so no IRR exists' };
  }
  const rates = internalRatesOfReturn(flows);
  if (rates.length === 0) {
    return {
      irr: null,
      rates,
      note: `NPV does not change sign for discount rates between ${percent(IRR_SEARCH_LOWER)} and ${percent(IRR_SEARCH_UPPER)}, so no IRR exists in that range`,
    };
  }
  if (rates.length === 1) return { irr: rates[0], rates };
  const nearest = rates.reduce((best, r) => (Math.abs(r - discountRate) < Math.abs(best - discountRate) ? r : best));
  return {
    irr: nearest,
    rates,
    note:
      `the cash flows change sign more than once and ${rates.length} rates make NPV zero (${rates.map(percent).join(', ')}); ` +
      `the one nearest the ${percent(discountRate)} discount rate is reported, and NPV is the better guide for this project`,
  };
}
