/** An asset as /terminal/assets `add` takes it (SPEC 4.3); the action's schema is in ./terminal.ts. */
import * as z from 'zod';
import { powerKw } from './bounds';
import { idSchema, textSchema } from './accounts';

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
