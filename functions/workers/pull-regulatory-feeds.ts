/** Runs on the daily schedule of shared/pipelines.ts: pulls the configured regulatory feeds into the store. */
import { pullRegulatoryUpdates } from '../../shared/services/regulatory/regulatory-updates';

export const handler = async () => pullRegulatoryUpdates();
