/**
 * Runs the scheduled workers of shared/pipelines.ts on timers, as EventBridge schedules do in the cloud:
 * the first run one period after start (a local server does not reach out to the internet on start),
 * except for rows marked `runAtStart` (local work only: the upload reconciler), which also run once at
 * start; never two runs of one worker at once. `npm run regulatory -- pull` runs a pull on demand.
 */
import { log } from '../shared/logger';
import { scheduleMinutes, type ScheduleSpec, type StartRunDetail } from '../shared/pipelines';
import { lambdaContext, type AnyHandler } from './lambda-context';
import { MINUTE_MS } from '../shared/domain/time';

export class ScheduleRunner {
  private timers: NodeJS.Timeout[] = [];
  private running = new Map<string, Promise<void>>();

  constructor(
    private readonly schedules: readonly ScheduleSpec[],
    private readonly loadHandler: (module: string) => Promise<AnyHandler>,
  ) {}

  start(): void {
    const detail: StartRunDetail = { runtime_started_at: new Date().toISOString() };
    this.timers = this.schedules.map((s) => setInterval(() => void this.run(s), scheduleMinutes(s) * MINUTE_MS).unref());
    for (const s of this.schedules.filter((row) => row.runAtStart)) void this.run(s, detail);
  }

  /** One run now (skipped when the previous run of the same worker is still going). */
  run(schedule: ScheduleSpec, detail: object = {}): Promise<void> {
    const current = this.running.get(schedule.id);
    if (current) return current;
    const run = (async () => {
      try {
        const handler = await this.loadHandler(schedule.handler);
        await handler({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail }, lambdaContext(schedule.handler));
      } catch (err) {
        log.error('scheduled worker failed', { schedule: schedule.id, err });
      } finally {
        this.running.delete(schedule.id);
      }
    })();
    this.running.set(schedule.id, run);
    return run;
  }

  /** Resolves when no run is going (the runs at start included). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running.values());
  }

  async stop(): Promise<void> {
    this.timers.forEach(clearInterval);
    await this.idle();
  }
}
