/** The local stand-in for EventBridge schedules: runs the worker, never twice at once, survives a failing run. */
import { ScheduleRunner } from '../../shared/local/schedule-runner';

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
});
