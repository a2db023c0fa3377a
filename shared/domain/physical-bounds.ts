/**
 * Physical ceilings of the numbers a request may carry (ARCHITECTURE 9, "Numbers with physical meaning"):
 * generous by orders of magnitude, and still far from where arithmetic overflows or a solver's infinity
 * (HiGHS takes 1e20 as infinite) begins. Schemas and domain checks both hold inputs to these.
 */
/** kW: the largest power stations are about 10 GW. */
export const MAX_POWER_KW = 1e7;
/** kWh: 100 TWh, more than the largest station makes in a year (10 GW for 8,760 h is 87.6 TWh). */
export const MAX_ENERGY_KWH = 1e11;
/** Currency: ten trillion, beyond any project's cost or revenue. */
export const MAX_AMOUNT = 1e13;
/** Currency per unit of energy, quoted per kWh or per MWh (market price caps are below 2e4 per MWh). */
export const MAX_ABS_PRICE = 1e5;
/** A measured or forecast series value in its own unit (W, kW, MWh, ...): the largest station in watts is 1e10. */
export const MAX_SERIES_VALUE = 1e12;
/** The smallest non-zero magnitude any request may carry: DynamoDB stores nothing below 1e-130, and no quantity of ours is that small. */
export const MIN_ABS_NONZERO_NUMBER = 1e-100;
/** Round-trip efficiency of any real store (pumped hydro, batteries, hydrogen) is well above this. */
export const MIN_ROUNDTRIP_EFFICIENCY = 0.01;
/** Any number in any request: beyond this nothing is physical, and sums and squares of it stay finite. */
export const MAX_ABS_NUMBER = 1e15;
