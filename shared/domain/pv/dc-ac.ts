/**
 * From irradiance on the cells to AC power: PVWatts (Dobos 2014) DC output with its temperature coefficient,
 * system losses, and the PVWatts inverter efficiency curve clipped at the AC rating.
 */

/** Temperature coefficient of power, 1/degree C: PVWatts' "standard" crystalline module (-0.37 %/C, version 8). */
export const DEFAULT_GAMMA_PDC = -0.0037;
/** Reference cell temperature of the nameplate rating (STC), degrees C. */
export const REFERENCE_CELL_TEMP_C = 25;
/** Nominal inverter efficiency, and the reference efficiency of the CEC curve PVWatts fitted (Dobos 2014). */
export const ETA_INV_NOM = 0.96;
export const ETA_INV_REF = 0.9637;

/**
 * PVWatts DC power (Dobos 2014, PVWatts Version 5 Manual; pvlib.pvsystem.pvwatts_dc): Pdc0 x G_eff / 1000 x (1 + gamma (T_cell - 25)).
 * @param effectiveIrradianceWm2 irradiance reaching the cells, after incidence-angle losses
 * @param pdc0 DC nameplate at STC (any unit; the result is in the same one)
 */
export function pvwattsDc(effectiveIrradianceWm2: number, cellTempC: number, pdc0: number, gammaPdc = DEFAULT_GAMMA_PDC, referenceTempC = REFERENCE_CELL_TEMP_C): number {
  return (effectiveIrradianceWm2 / 1000) * pdc0 * (1 + gammaPdc * (cellTempC - referenceTempC));
}

/** DC power after PVWatts system losses (soiling, wiring, mismatch, availability ...), given in percent. */
export function afterSystemLosses(dc: number, lossesPct: number): number {
  return dc * (1 - lossesPct / 100);
}

/**
 * PVWatts inverter (Dobos 2014, PVWatts Version 5 Manual; pvlib.inverter.pvwatts): efficiency eta = eta_nom / eta_ref x
 * (-0.0162 zeta - 0.0059 / zeta + 0.9858), zeta = Pdc / Pdc0, AC = eta Pdc, limited to eta_nom Pdc0 (the AC
 * rating: clipping) and at least 0 (the curve turns negative below zeta = 0.006).
 * @param pdc0 the inverter's DC input limit, its AC rating over eta_nom
 */
export function pvwattsInverter(pdc: number, pdc0: number, etaInvNom = ETA_INV_NOM, etaInvRef = ETA_INV_REF): number {
  if (pdc === 0) return 0;
  const zeta = pdc / pdc0;
  const eta = (etaInvNom / etaInvRef) * (-0.0162 * zeta - 0.0059 / zeta + 0.9858);
  return Math.max(0, Math.min(etaInvNom * pdc0, eta * pdc));
}

/** AC output of an inverter rated `acRatingKw`, kW: the PVWatts curve with Pdc0 = AC rating / eta_nom, so it clips there. */
export function inverterAcKw(dcKw: number, acRatingKw: number, etaInvNom = ETA_INV_NOM, etaInvRef = ETA_INV_REF): number {
  return pvwattsInverter(dcKw, acRatingKw / etaInvNom, etaInvNom, etaInvRef);
}
