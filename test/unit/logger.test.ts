import { log } from '../../shared/logger';
import { captureLogLines } from '../helpers/log-lines';

describe('structured logs', () => {
  const logged = captureLogLines('stdout', 'info');

  it('writes one JSON object per line', () => {
    log.info('request', { route: 'usage', status: 200 });
    expect(logged()).toHaveLength(1);
    expect(JSON.parse(logged()[0])).toMatchObject({ level: 'info', msg: 'request', route: 'usage', status: 200 });
  });

  it('never writes a key, a secret or an authorization header', () => {
    log.info('request', { api_key: 'eo_live_SECRET1', headers: { authorization: 'Bearer SECRET2', 'x-api-key': 'SECRET3' }, secret: 'SECRET4' });
    expect(logged().join('')).not.toMatch(/SECRET/);
    expect(JSON.parse(logged()[0]).headers.authorization).toBe('[redacted]');
  });

  it('masks secrets by name and keeps object keys readable', () => {
    log.info('upload not stored', {
      key: 'nowcast/acme/site-1/2026/data.csv',
      key_hint: 'eo_live_ab',
      apiKey: 'SECRET5',
      callback_secret: 'whsec_SECRET6',
      session_token: 'SECRET7',
      EDGE_CLOUD_SECRET_ACCESS_KEY: 'SECRET8',
      cookie: 'SECRET9',
      nested: { 'X-Api-Key': 'SECRET10', refresh_token: 'SECRET11' },
    });
    const line = JSON.parse(logged()[0] ?? '{}');
    expect(logged().join('')).not.toMatch(/SECRET\d/);
    expect(line.key).toBe('nowcast/acme/site-1/2026/data.csv');
    expect(line.key_hint).toBe('eo_live_ab');
  });

  it('drops entries below the configured level', () => {
    log.debug('noise');
    expect(logged()).toHaveLength(0);
  });
});
