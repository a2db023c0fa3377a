import { serve } from '../shared/http/api-handler';
import { INGESTION_ROUTES } from '../shared/routes/ingestion';
import { uploadDirect, uploadHistoricalPlatform } from '../shared/services/uploads/upload-forms';

export const handler = serve(INGESTION_ROUTES, 'upload-data', {
  'upload-train': ({ caller, rawBody }) => uploadDirect(caller, 'historical', rawBody),
  'upload-nowcast': ({ caller, rawBody }) => uploadDirect(caller, 'nowcast', rawBody),
  'upload-historical': ({ caller, query, rawBody }) => uploadHistoricalPlatform(caller, query, rawBody),
});
