import { serve } from '../shared/http/api-handler';
import { INGESTION_ROUTES } from '../shared/routes/ingestion';
import { uploadStatus } from '../shared/services/uploads/upload-status';

export const handler = serve(INGESTION_ROUTES, 'get-upload-status', { 'upload-status': ({ caller, path }) => uploadStatus(caller, path.upload_id) });
