/**
 * Cell temperature from the weather: the heat balance of a module in the field.
 */

/** Faiman's (2008) combined heat-loss factors for an open-rack module, pvlib's defaults (from IEC 61853-2). */
export const FAIMAN_U0 = 25.0;
/** Wind-dependent heat-loss factor, W/(m2 K) per m/s. */
export const FAIMAN_U1 = 6.84;

/**
 * Faiman (2008), eq. 4 (pvlib.temperature.faiman): T_cell = T_air + POA / (u0 + u1 x wind), degrees C.
 * @param poaGlobalWm2 plane-of-array irradiance, W/m2
 * @param windSpeedMs wind speed at the module's height (10 m in the data Faiman fitted; pvlib uses it as given)
 */
export function faimanCellTemperature(poaGlobalWm2: number, tempAirC: number, windSpeedMs = 1, u0 = FAIMAN_U0, u1 = FAIMAN_U1): number {
  return tempAirC + poaGlobalWm2 / (u0 + u1 * Math.max(0, windSpeedMs));
}
