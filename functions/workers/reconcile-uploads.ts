/**
 * Runs on the schedule of shared/pipelines.ts (and once at the local runtime's start, which sets
 * `detail.runtime_started_at`): re-drives uploads stuck in flight, fails them after bounded attempts.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import type { StartRunDetail } from '../../shared/pipelines';
import { reconcileUploads } from '../../shared/services/uploads/upload-reconciler';

export const handler = async (event: ScheduledEvent<Partial<StartRunDetail>>, context: Context) =>
  reconcileUploads({ orphanedBefore: event.detail?.runtime_started_at, deadline: Date.now() + context.getRemainingTimeInMillis() });
