/**
 * The registry of forecasting members the engine chooses from (ARCHITECTURE 7). A member declares the kinds
 * it supports and the history it needs; the engine validates every applicable one and weights or picks.
 */
import { meanProfileMember, persistenceMember, seasonalNaiveMember, smartPersistenceMember } from './baselines';
import { holtWintersDailyMember, holtWintersMember } from './holt-winters';
import { loadRegressionMember } from './load';
import { mstlEtsMember } from './mstl';
import { epftoolboxNaiveMember, priceLearMedianMember, priceLearMember, priceLearVstMember } from './price';
import { pvPhysicalMember } from './pv-physical';
import { solarClearSkyMember } from './solar';
import { clearSkyIndexPersistenceMember } from './solar-persistence';
import type { ForecastMember } from './types';
import { windMember } from './wind';
import { windArMember } from './wind-ar';
import { nielsenBlendMember } from './wind-nielsen';

/** Every member, baselines first (they apply to every kind, 'generic' included). Add new members here. */
export const ALL_MEMBERS: readonly ForecastMember[] = [
  persistenceMember,
  meanProfileMember,
  seasonalNaiveMember,
  smartPersistenceMember,
  solarClearSkyMember,
  clearSkyIndexPersistenceMember,
  pvPhysicalMember,
  loadRegressionMember,
  holtWintersMember,
  holtWintersDailyMember,
  mstlEtsMember,
  windMember,
  nielsenBlendMember,
  windArMember,
  priceLearMember,
  priceLearMedianMember,
  priceLearVstMember,
  epftoolboxNaiveMember,
];

/** The member registered under a name, if any. */
export const memberNamed = (name: string, members: readonly ForecastMember[] = ALL_MEMBERS) => members.find((m) => m.name === name);
