import { apiHandler } from '../shared/http/api-handler';
import { UploadStatusPath } from '../shared/schemas/uploads';
import { uploadStatus } from '../shared/services/upload-status';

export const handler = apiHandler('upload-status', { path: UploadStatusPath }, ({ caller, path }) => uploadStatus(caller, path.upload_id));
