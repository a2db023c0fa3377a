/** The local stand-in for EventBridge schedules: runs the worker, never twice at once, survives a failing run. */
import { ScheduleRunner } from '../../local/schedule-runner';

const SCHEDULE = { id: 'daily', purpose: 'test', handler: 'workers/test', everyHours: 24, timeoutSeconds: 60 };

describe('ScheduleRunner', () => {
  it('invokes the schedule\'s worker with a scheduled event, one run at a time', async () => {
    // Prepare
    const events: unknown[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const runner = new ScheduleRunner([SCHEDULE], async (module) => {
      expect(module).toBe('workers/test');
      return async (event: unknown) => {
        events.push(event);
        await gate;
      };
    });

    // Act: a second run while the first is going joins it
    const first = runner.run(SCHEDULE);
    const second = runner.run(SCHEDULE);
    release();
    await Promise.all([first, second]);

    // Assess
    expect(events).toEqual([{ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} }]);
    await runner.stop();
  });

  it('logs a failing run and runs again next time', async () => {
    let calls = 0;
    const runner = new ScheduleRunner([SCHEDULE], async () => async () => {
      calls++;
      throw new Error('feed down');
    });
    await runner.run(SCHEDULE);
    await runner.run(SCHEDULE);
    expect(calls).toBe(2);
  });

  it('runs a runAtStart row once at start with the start time, and every other row only after its period', async () => {
    // Prepare
    jest.useFakeTimers({ now: Date.UTC(2026, 0, 1, 12), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const runs: { handler: string; detail: unknown }[] = [];
    const reconciler = { id: 'reconciler', purpose: 'test', handler: 'workers/reconcile', everyMinutes: 15, timeoutSeconds: 900, runAtStart: true };
    const feeds = { ...SCHEDULE, handler: 'workers/feeds' };
    const runner = new ScheduleRunner([reconciler, feeds], async (module) => async (event: { detail: unknown }) => {
      runs.push({ handler: module, detail: event.detail });
    });

    try {
      // Act: start, then 15 minutes pass
      runner.start();
      await runner.idle();
      const atStart = [...runs];
      await jest.advanceTimersByTimeAsync(15 * 60_000);
      await runner.idle();

      // Assess: the feeds (internet) do not run at start; the reconciler runs at start and after 15 minutes
      expect(atStart).toEqual([{ handler: 'workers/reconcile', detail: { runtime_started_at: '2026-01-01T12:00:00.000Z' } }]);
      expect(runs).toEqual([...atStart, { handler: 'workers/reconcile', detail: {} }]);
    } finally {
      await runner.stop();
      jest.useRealTimers();
    }
  });
});
