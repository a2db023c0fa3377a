/** The environment shared/config.ts reads at cold start, as every function of a region receives it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import type { Config } from '../../shared/config';
import { TABLES } from '../../shared/store/tables';
import type { DataReferences } from './data-references';

type ConfigKey = keyof Omit<Config, 'queueUrls'>;

/**
 * Weather in the cloud: Open-Meteo explicitly, no silent climatology (ARCHITECTURE 9), reached over the functions'
 * default internet egress (they run outside a VPC), answers cached in the analytics table. One request may wait this
 * long: a history range asks two endpoints at once, well inside API Gateway's 29 s.
 */
export const DEPLOYED_WEATHER: Readonly<Partial<Record<ConfigKey, string>>> = { WEATHER_PROVIDER: 'open-meteo', WEATHER_TIMEOUT_MS: '5000', WEATHER_CACHE: 'store' };

export function functionEnvironment(data: DataReferences, projectRoot: string): Record<string, string> {
  const { names } = data;
  const version = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const queueUrls = Object.fromEntries(Object.entries(data.queues).map(([id, queue]) => [id, queue.queueUrl]));
  const env: Partial<Record<ConfigKey, string>> = {
    ...Object.fromEntries(TABLES.map((t) => [t.nameFrom, names.tables[t.id]])),
    DATA_BUCKET: names.bucket,
    EVENT_BUS: names.bus,
    QUEUE_URLS: Stack.of(data).toJsonString(queueUrls),
    EVENT_TRANSPORT: 'aws',
    SERVICE_VERSION: version,
    DISK_PATH: '/tmp',
    ...DEPLOYED_WEATHER,
  };
  return {
    ...(env as Record<string, string>),
    // The SDK warns on every cold start that it will need a newer Node one day; versions are pinned (ARCHITECTURE 10).
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}
