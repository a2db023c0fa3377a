/**
 * Per-month summaries of a site's stored series (analytics table), kept beside the monthly objects so an
 * upload updates the coverage of the months it touches without reading the others (domain/ingest/month-summary.ts).
 */
import type { MonthSummary } from '../domain/ingest';
import { getItem, listRecords, putItem } from './dynamo';
import { keys } from './keys';

/** Every month summary of the site, in month order (one query, whatever the history's length). */
export async function listMonthSummaries(customerId: string, siteId: string): Promise<MonthSummary[]> {
  return listRecords<MonthSummary>('analytics', keys.seriesSummariesOf(customerId, siteId));
}

export async function saveMonthSummaries(customerId: string, siteId: string, summaries: MonthSummary[]): Promise<void> {
  await Promise.all(summaries.map((s) => putItem('analytics', { ...keys.seriesSummary(customerId, siteId, s.month), ...s })));
}

/** Whether every stored month of the site has a summary (false for sites stored before summaries existed). */
export async function summariesComplete(customerId: string, siteId: string): Promise<boolean> {
  return (await getItem('analytics', keys.seriesSummariesComplete(customerId, siteId))) !== undefined;
}

export async function markSummariesComplete(customerId: string, siteId: string, at: string): Promise<void> {
  await putItem('analytics', { ...keys.seriesSummariesComplete(customerId, siteId), completed_at: at });
}
