import { serve } from '../shared/http/api-handler';
import { uploadDirect, uploadHistoricalPlatform } from '../shared/services/upload-forms';

export const handler = serve('upload-data', {
  'upload-train': ({ caller, rawBody }) => uploadDirect(caller, 'historical', rawBody),
  'upload-nowcast': ({ caller, rawBody }) => uploadDirect(caller, 'nowcast', rawBody),
  'upload-historical': ({ caller, query, rawBody }) => uploadHistoricalPlatform(caller, query, rawBody),
});
