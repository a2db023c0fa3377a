/**
 * At an edge node results are also written as objects under `results/`, so the cloud sync carries them with
 * the standardised data (README: edge node). In the cloud this does nothing: the results live in the table.
 */
import { config } from '../config';
import { putObject } from './bucket';

export async function archiveResult(kind: 'forecasts' | 'interpolations', ownerId: string, at: string, id: string, record: object): Promise<void> {
  if (config().EDGE_ARCHIVE_RESULTS !== '1') return;
  await putObject(`results/${kind}/${ownerId}/${at.slice(0, 10)}/${id}.json`, JSON.stringify(record), 'application/json');
}
