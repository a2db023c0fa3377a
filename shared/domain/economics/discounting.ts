/** Discounting of end-of-year cash flows: index t of a flow array is year t, year 0 undiscounted. */

/** Present value at year 0 of an amount at the end of `year`. */
export function discounted(amount: number, rate: number, year: number): number {
  return amount / (1 + rate) ** year;
}

/** Net present value of `flows` (flows[0] at year 0) at `rate` (a fraction, > -1). */
export function netPresentValue(flows: readonly number[], rate: number): number {
  let sum = 0;
  for (let t = 0; t < flows.length; t++) sum += discounted(flows[t], rate, t);
  return sum;
}
