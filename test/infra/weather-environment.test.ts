/** The deployed functions use Open-Meteo explicitly, with its time-out and the cache (lib/api/function-environment.ts). */
import { Match } from 'aws-cdk-lib/assertions';
import { ROUTES } from '../../shared/routes';
import { synthRegion } from '../helpers/cdk';

const REGION = 'eu-west-1';

it('sets WEATHER_PROVIDER=open-meteo, the weather time-out and the cache on a deployed function', () => {
  const { api } = synthRegion(REGION, { routes: ROUTES.filter((r) => r.handler === 'weather-data') });
  api.hasResourceProperties('AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp('^weather-data'),
    Environment: { Variables: Match.objectLike({ WEATHER_PROVIDER: 'open-meteo', WEATHER_TIMEOUT_MS: '5000', WEATHER_CACHE: 'store' }) },
  });
}, 120_000);
