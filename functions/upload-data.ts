import { apiHandler, byRoute } from '../shared/http/api-handler';
import { uploadDirect, uploadHistoricalPlatform } from '../shared/services/upload-forms';

export const handler = byRoute({
  'upload-train': apiHandler('upload-train', {}, ({ caller, rawBody }) => uploadDirect(caller, 'historical', rawBody)),
  'upload-nowcast': apiHandler('upload-nowcast', {}, ({ caller, rawBody }) => uploadDirect(caller, 'nowcast', rawBody)),
  'upload-historical': apiHandler('upload-historical', {}, ({ caller, query, rawBody }) => uploadHistoricalPlatform(caller, query, rawBody)),
});
