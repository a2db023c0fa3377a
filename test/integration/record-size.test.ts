/** A record too large for DynamoDB is the client's 413 wherever it is written, never a 500 (issue 17). */
import { RecordTooLarge } from '../../shared/errors';
import { putItem, setFields } from '../../shared/store/dynamo';
import { useRuntime } from '../helpers/runtime';

const runtime = useRuntime();

describe('records over the store item limit', () => {
  it('turns a put of an item over 400 KB into RecordTooLarge', async () => {
    runtime();
    await expect(putItem('operations', { pk: 'TEST#big', sk: 'ONE', text: 'x'.repeat(450_000) })).rejects.toBeInstanceOf(RecordTooLarge);
  });

  it('turns an update that grows an item past 400 KB into RecordTooLarge', async () => {
    runtime();
    await putItem('operations', { pk: 'TEST#grow', sk: 'ONE', text: 'small' });
    await expect(setFields('operations', { pk: 'TEST#grow', sk: 'ONE' }, { text: 'y'.repeat(450_000) })).rejects.toBeInstanceOf(RecordTooLarge);
  });
});
