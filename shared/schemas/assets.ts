/** /terminal/assets (SPEC 4.3); messages from the spec's error table. */
import { z } from 'zod';
import { powerKw } from './bounds';
import { exact } from '../http/validation';
import { idSchema, textSchema } from './accounts';

export const ASSET_ACTIONS = ['add', 'list', 'get'] as const;
export const ASSET_REQUIRED_ON_ADD = ['name', 'type', 'capacity_kw', 'location'] as const;

export const AssetsRequest = z.object({
  action: z.string({ error: exact('Invalid action') }),
  asset_id: idSchema().optional(),
});

export const AddAssetRequest = z.object({
  asset_id: idSchema(),
  name: textSchema(),
  type: textSchema(60),
  capacity_kw: powerKw().positive(),
  location: textSchema(),
  components: z.array(z.object({ oem: textSchema(), model: textSchema(), serial: textSchema(128) })).max(200).optional(),
  customer_id: idSchema().optional(),
  site_id: idSchema().optional(),
});
