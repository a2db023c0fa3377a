// The durable stand-in's journal: one JSON record a line, appended with a synchronous write before the request
// is answered, so a kill -9 loses nothing that was acknowledged (the write is in the kernel by then). fdatasync
// is for power loss: the store asks for it on the records whose loss would lose or resurrect work.
import { closeSync, existsSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

const FILE = 'journal.jsonl';
const VERSION = 1;
/** Snapshot lines are written in chunks of about this many characters, so a large backlog is not one string. */
const WRITE_CHUNK = 1 << 20;

/** Parses the journal's text; a torn tail (a write cut short by a kill or a power loss) is dropped. */
export function parseJournal(text, file = FILE) {
  const lines = text.split('\n');
  const records = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    try {
      records.push(JSON.parse(lines[i]));
    } catch {
      // Only the tail can be torn: the writer appends whole lines and the start compacts the file away.
      if (lines.slice(i + 1).every((l) => !l.trim())) break;
      throw new Error(`${file}:${i + 1} is not a journal record (move the file away to start with empty queues)`);
    }
  }
  const header = records[0]?.op === 'journal' ? records.shift() : undefined;
  if (header && header.version > VERSION) throw new Error(`${file} is journal version ${header.version}; this stand-in reads version ${VERSION}`);
  return records;
}

/** A rename is durable only once its directory is synced (POSIX); not all platforms can open one. */
function syncDirectory(dir) {
  let fd;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot fsync a directory; the rename is as durable as that platform makes it.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export class Journal {
  /** Opens (creating) `<dir>/journal.jsonl`; returns the journal and the records it held. */
  static open(dir) {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, FILE);
    const records = existsSync(file) ? parseJournal(readFileSync(file, 'utf8'), file) : [];
    return { journal: new Journal(dir, file), records };
  }

  constructor(dir, file) {
    this.dir = dir;
    this.file = file;
    this.fd = openSync(file, 'a');
    syncDirectory(dir);
    /** Records appended since the last rewrite: the store compacts when these outgrow its live state. */
    this.appended = 0;
  }

  /** Appends the records of one operation in one write; `durable` waits for the disk as well. */
  append(records, { durable }) {
    writeSync(this.fd, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    if (durable) fdatasyncSync(this.fd);
    this.appended += records.length;
  }

  /** Replaces the journal by `records` (the live state): written to a temporary file, synced, renamed over. */
  rewrite(records) {
    const temp = `${this.file}.tmp`;
    const fd = openSync(temp, 'w');
    try {
      let chunk = `${JSON.stringify({ op: 'journal', version: VERSION, written_at: Date.now() })}\n`;
      for (const record of records) {
        chunk += `${JSON.stringify(record)}\n`;
        if (chunk.length >= WRITE_CHUNK) {
          writeSync(fd, chunk);
          chunk = '';
        }
      }
      writeSync(fd, chunk);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
    syncDirectory(this.dir);
    closeSync(this.fd);
    this.fd = openSync(this.file, 'a');
    this.appended = 0;
  }

  close() {
    closeSync(this.fd);
  }
}
