/**
 * Runs the scheduled workers of shared/pipelines.ts on timers, as EventBridge schedules do in the cloud:
 * the first run one period after start (a local server does not reach out to the internet on start),
 * never two runs of one worker at once. `npm run regulatory -- pull` runs a pull on demand.
 */
import { log } from '../http/logger';
import type { ScheduleSpec } from '../pipelines';
import { lambdaContext, type AnyHandler } from './lambda-context';

const HOUR_MS = 3_600_000;

export class ScheduleRunner {
  private timers: NodeJS.Timeout[] = [];
  private running = new Map<string, Promise<void>>();

  constructor(
    private readonly schedules: readonly ScheduleSpec[],
    private readonly loadHandler: (module: string) => Promise<AnyHandler>,
  ) {}

  start(): void {
    this.timers = this.schedules.map((s) => setInterval(() => void this.run(s), s.everyHours * HOUR_MS).unref());
  }

  /** One run now (skipped when the previous run of the same worker is still going). */
  run(schedule: ScheduleSpec): Promise<void> {
    const current = this.running.get(schedule.id);
    if (current) return current;
    const run = (async () => {
      try {
        const handler = await this.loadHandler(schedule.handler);
        await handler({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }, lambdaContext(schedule.handler));
      } catch (err) {
        log.error('scheduled worker failed', { schedule: schedule.id, err });
      } finally {
        this.running.delete(schedule.id);
      }
    })();
    this.running.set(schedule.id, run);
    return run;
  }

  async stop(): Promise<void> {
    this.timers.forEach(clearInterval);
    await Promise.all(this.running.values());
  }
}
