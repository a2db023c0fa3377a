import { serve } from '../shared/http/api-handler';
import { uploadStatus } from '../shared/services/upload-status';

export const handler = serve('get-upload-status', { 'upload-status': ({ caller, path }) => uploadStatus(caller, path.upload_id) });
