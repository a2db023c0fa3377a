/** The deployed functions use Open-Meteo explicitly, with its time-out and the cache (lib/api/function-environment.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { buildEnergyApp } from '../../lib/energy-app';
import { ROUTES } from '../../shared/routes';

const ROOT = path.resolve(__dirname, '../..');
const REGION = 'eu-west-1';

it('sets WEATHER_PROVIDER=open-meteo, the weather time-out and the cache on a deployed function', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'energy-cdk-weather-'));
  try {
    const app = new App({ outdir });
    const stacks = buildEnergyApp(app, {
      regions: [REGION],
      stageName: 'test',
      account: '123456789012',
      pipelines: { queues: [], rules: [], triggers: [], schedules: [] },
      routes: ROUTES.filter((r) => r.handler === 'weather-data'),
      projectRoot: ROOT,
    });
    const template = Template.fromStack(stacks.get(REGION)!.api);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^weather-data'),
      Environment: { Variables: Match.objectLike({ WEATHER_PROVIDER: 'open-meteo', WEATHER_TIMEOUT_MS: '5000', WEATHER_CACHE: 'store' }) },
    });
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}, 120_000);
