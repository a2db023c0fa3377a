/** The local runtime keeps serving after a fault escapes a request (issue 17): checked in a child process. */
import { spawnSync } from 'node:child_process';

const script = `
import { keepServingOnUncaughtErrors } from './local/process-guards.ts';
const guards = keepServingOnUncaughtErrors();
setTimeout(() => { throw new Error('thrown from a timer'); }, 0);
Promise.reject(new Error('rejected and never awaited'));
setTimeout(() => console.log(JSON.stringify({ alive: true, absorbed: guards.absorbed() })), 200);
`;

describe('process guards', () => {
  it('log an uncaught error and an unhandled rejection, and the process goes on', () => {
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'error' }, timeout: 60_000 });
    expect(out.status).toBe(0);
    const last = out.stdout.trim().split('\n').pop()!;
    expect(JSON.parse(last)).toEqual({ alive: true, absorbed: 2 });
    const logged = out.stderr.trim().split('\n').map((l) => JSON.parse(l).msg);
    expect(logged).toEqual(expect.arrayContaining(['uncaught error absorbed: the process keeps serving', 'unhandled rejection absorbed: the process keeps serving']));
  });
});
