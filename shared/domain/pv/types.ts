/**
 * The PV system model's vocabulary (issue 19): a system's specs, the weather it is driven by, and what each
 * step of the model chain gives. Angles in degrees; azimuths clockwise from north (180 = south); powers kW.
 */

/** One point of a horizon profile: the sky is blocked below `elevationDeg` towards `azimuthDeg`. */
export interface HorizonPoint {
  azimuthDeg: number;
  elevationDeg: number;
}

/** A fixed-tilt PV system, as PUT /api/sites/{site_id} stores it (ARCHITECTURE 9). */
export interface PvSystem {
  latitude: number;
  longitude: number;
  /** Metres above sea level. */
  elevationM: number;
  /** DC nameplate at STC, kWp. */
  capacityKwp: number;
  /** From horizontal, 0-90. */
  tiltDeg: number;
  /** Clockwise from north, 180 = south. */
  azimuthDeg: number;
  /** PVWatts system losses (soiling, wiring, mismatch, availability ...), percent; PVWatts' default is 14. */
  lossesPct: number;
  /** Inverter AC rating, kW: output is clipped there. */
  inverterAcKw: number;
  /** Optional far-horizon profile for shading; linear in azimuth between points, wrapping at 360. */
  horizon?: HorizonPoint[];
}

/**
 * Weather over one step. Irradiances are means over the step; `t` is the step's start (epoch ms, UTC) and the
 * model evaluates the sun at the step's middle. GHI alone is decomposed (Erbs); with DNI or DHI the
 * missing component follows from closure (GHI = DNI cos z + DHI).
 */
export interface PvWeatherStep {
  t: number;
  ghiWm2: number;
  dniWm2?: number;
  dhiWm2?: number;
  /** Air temperature at 2 m, degrees C (default 20). */
  tempAirC?: number;
  /** Wind speed at 10 m, m/s (default 1). */
  windSpeedMs?: number;
}

/** The model chain's result for one step. */
export interface PvStepResult {
  t: number;
  /** Apparent solar zenith and azimuth at the step's middle. */
  zenithDeg: number;
  solarAzimuthDeg: number;
  /** Clear-sky GHI (Ineichen-Perez) at the step, for clear-sky indices. */
  clearSkyGhiWm2: number;
  /** The GHI that drove the step (its clear-sky index is this over `clearSkyGhiWm2`). */
  ghiWm2?: number;
  /** Plane-of-array irradiance after shading, before incidence-angle losses. */
  poaWm2: number;
  /** Irradiance reaching the cells (after incidence-angle losses). */
  effectiveIrradianceWm2: number;
  cellTempC: number;
  /** DC power at the inverter input, after system losses. */
  dcKw: number;
  /** AC output after losses, inverter efficiency and clipping. */
  acKw: number;
}
