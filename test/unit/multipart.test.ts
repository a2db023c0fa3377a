import { parseMultipart } from '../../shared/http/multipart';

const CT = 'multipart/form-data; boundary=XyZ';
const part = (disposition: string, content: string) => `--XyZ\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: text/csv\r\n\r\n${content}\r\n`;
const form = (...parts: string[]) => Buffer.from(parts.join('') + '--XyZ--\r\n');

describe('multipart bodies', () => {
  it('reads fields and files of a well-formed body', async () => {
    const body = await parseMultipart(form(part('name="email"', 'a@example.com'), part('name="file"; filename="d.csv"', 'timestamp,value\n')), CT);
    expect(body.fields).toEqual({ email: 'a@example.com' });
    expect(body.files).toHaveLength(1);
    expect(body.files[0]).toMatchObject({ field: 'file', filename: 'd.csv' });
    expect(body.files[0].data.toString()).toBe('timestamp,value\n');
  });

  it('refuses a body cut off before its closing boundary (a file part open)', async () => {
    const cut = Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="d.csv"\r\nContent-Type: text/csv\r\n\r\ntimestamp,value\n2026-01-01T00:00:00Z,1\n');
    await expect(parseMultipart(cut, CT)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^Malformed multipart\/form-data body: unexpected end of form/) });
  });

  it('refuses a body cut off inside a field', async () => {
    const cut = Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="email"\r\n\r\na@exa');
    await expect(parseMultipart(cut, CT)).rejects.toMatchObject({ status: 400 });
  });

  it('refuses a file part without a name', async () => {
    await expect(parseMultipart(form(part('filename="d.csv"', 'timestamp,value\n')), CT)).rejects.toMatchObject({ status: 400, message: 'Malformed multipart/form-data body: a part has no name' });
  });

  it('refuses a field part without a name', async () => {
    await expect(parseMultipart(form(part('foo="bar"', 'x')), CT)).rejects.toMatchObject({ status: 400, message: 'Malformed multipart/form-data body: a part has no name' });
  });

  it('refuses a Content-Type without a boundary', async () => {
    await expect(parseMultipart(form(), 'multipart/form-data')).rejects.toMatchObject({ status: 400 });
  });

  it('refuses more files than allowed', async () => {
    const files = Array.from({ length: 6 }, (_, i) => part(`name="f${i}"; filename="f${i}.csv"`, 'a'));
    await expect(parseMultipart(form(...files), CT)).rejects.toMatchObject({ status: 400, message: 'Malformed multipart/form-data body: more than 4 files' });
  });

  it('answers garbage with a 400 or an empty form, never a crash', async () => {
    for (const raw of ['', '--', '--XyZ', '--XyZ\r\n\r\n', '\u0000\u0001--XyZ--', '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n']) {
      const outcome = await parseMultipart(Buffer.from(raw), CT).then(
        () => 'parsed',
        (err: { status?: number }) => err.status,
      );
      expect(['parsed', 400]).toContain(outcome);
    }
  });
});
