/**
 * The registry of forecasting members the engine chooses from (ARCHITECTURE 7). A member declares the kinds
 * it supports and the history it needs; the engine validates every applicable one and weights or picks.
 */
import { seasonalNaiveMember, smartPersistenceMember } from './baselines';
import { holtWintersDailyMember, holtWintersMember } from './holt-winters';
import { loadRegressionMember } from './load';
import { priceLearMember } from './price';
import { solarClearSkyMember } from './solar';
import type { ForecastMember } from './types';
import { windMember } from './wind';

/** Every member, baselines first (they apply to every kind, 'generic' included). Add new members here. */
export const ALL_MEMBERS: readonly ForecastMember[] = [
  seasonalNaiveMember,
  smartPersistenceMember,
  solarClearSkyMember,
  loadRegressionMember,
  holtWintersMember,
  holtWintersDailyMember,
  windMember,
  priceLearMember,
];

/** The member registered under a name, if any. */
export const memberNamed = (name: string, members: readonly ForecastMember[] = ALL_MEMBERS) => members.find((m) => m.name === name);
