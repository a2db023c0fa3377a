/**
 * Physical names of the stateful resources in one region: the contract between the data stack, which
 * creates them, and the API stack, which reaches them by name (ARNs built with `Stack.formatArn`), so the
 * stateless stack never holds a CloudFormation export of the stateful one and either can be replaced alone.
 */
import { Aws } from 'aws-cdk-lib';
import { config, resetConfig, type Config } from '../shared/config';
import { dlqId, type Pipelines } from '../shared/pipelines';
import { TABLES, type TableSpec } from '../shared/store/tables';

/** Prefix of names that shared/config.ts does not define (queues); the same as its defaults use. */
const NAME_PREFIX = 'energy';

export interface DataNames {
  /** Table name by logical id; config.ts defaults, so the operator CLI (`npm run accounts -- --aws`) finds them. */
  tables: Record<TableSpec['id'], string>;
  /** Bucket names are global: the config default plus account and region. */
  bucket: string;
  bus: string;
  /** Queue name by logical id, DLQs included (`training`, `training-dlq`, ...). */
  queues: Record<string, string>;
}

/**
 * The defaults of shared/config.ts, whatever the environment of the synthesising shell says: a stray
 * `ACCOUNTS_TABLE` exported for the local runtime must not rename (and so replace) a deployed table.
 */
export function configDefaults(): Config {
  const saved = process.env;
  process.env = {};
  resetConfig();
  try {
    return config();
  } finally {
    process.env = saved;
    resetConfig();
  }
}

/** The names of one region's data resources; without an account, the deploying account (a token). */
export function dataNames(env: { region: string; account?: string }, pipelines: Pipelines): DataNames {
  const defaults = configDefaults();
  const queueIds = pipelines.queues.flatMap((q) => [q.id, dlqId(q.id)]);
  return {
    tables: Object.fromEntries(TABLES.map((t) => [t.id, defaults[t.nameFrom]])) as DataNames['tables'],
    bucket: `${defaults.DATA_BUCKET}-${env.account ?? Aws.ACCOUNT_ID}-${env.region}`,
    bus: defaults.EVENT_BUS,
    queues: Object.fromEntries(queueIds.map((id) => [id, `${NAME_PREFIX}-${id}`])),
  };
}
