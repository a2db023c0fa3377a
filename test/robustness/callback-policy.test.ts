/**
 * `CALLBACK_HOSTS=public` set in the environment used to be overwritten by the local runtime's `loopback`
 * (issue 17): an edge node facing a site network could not refuse loopback callbacks.
 */
import { call, registerKey, useRuntime } from '../helpers/runtime';

process.env.CALLBACK_HOSTS = 'public';
const runtime = useRuntime();

describe('CALLBACK_HOSTS from the environment', () => {
  it('refuses a loopback webhook URL under the public policy', async () => {
    const { key } = await registerKey(runtime());
    const r = await call(runtime(), 'POST', '/api/webhooks', {
      key,
      json: { webhook_url: 'http://127.0.0.1:9/hook', events: ['training_completed'], secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}` },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Invalid webhook URL');
  });
});
