/** GET /api/uploads/{upload_id} (ARCHITECTURE 9), apart from the upload path so its function stays small. */
import { NotFound } from '../../errors';
import { getUpload } from '../../store/uploads-repo';
import type { Caller } from '../../access/authentication';

export async function uploadStatus(caller: Caller, uploadId: string) {
  const record = await getUpload(uploadId);
  if (!record || record.account_id !== caller.accountId) throw new NotFound('Upload not found');
  const { account_id: _owner, source: _source, processed_etag: _etag, ...view } = record;
  return { ...view, processing_status: record.status };
}
