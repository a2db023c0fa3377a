/**
 * The PV system model (issue 19): one module per step of the chain, each citing its method; `simulatePv` runs
 * them in order, `clearSkyWeather` gives the clear-sky weather to drive it with.
 */
export type { HorizonPoint, PvStepResult, PvSystem, PvWeatherStep } from './types';
export { angleOfIncidenceDeg, cosAngleOfIncidence, stepMiddles, sunPath, type SunPath } from './solar-geometry';
export { clearnessIndex, closeComponents, erbs, type BeamDiffuse } from './decomposition';
export {
  beamOnPlane,
  DEFAULT_ALBEDO,
  groundDiffuse,
  hayDaviesSkyDiffuse,
  isotropicSkyDiffuse,
  perezSkyDiffuse,
  planeOfArray,
  type PlaneOfArray,
  type SkyDiffuse,
  type SunAndSky,
  type TranspositionModel,
} from './transposition';
export { diffuseIam, iamFunction, iamMartinRuiz, iamPhysical, marionIntegrate, martinRuizDiffuse, type DiffuseRegion, type IamModel } from './incidence-angle';
export { faimanCellTemperature, FAIMAN_U0, FAIMAN_U1 } from './cell-temperature';
export { afterSystemLosses, DEFAULT_GAMMA_PDC, inverterAcKw, pvwattsDc, pvwattsInverter } from './dc-ac';
export { horizonElevationAt, isSunBehindHorizon, prepareHorizon, type HorizonProfile } from './horizon-shading';
export { clearSkyWeather, DEFAULT_TEMP_AIR_C, DEFAULT_WIND_SPEED_MS, simulatePv, type PvModelOptions } from './system-model';
