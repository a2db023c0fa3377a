/** Captures the JSON log lines one stream receives at a log level, for each test of a describe block. */
import { resetConfig } from '../../shared/config';

export function captureLogLines(stream: 'stdout' | 'stderr', level: 'debug' | 'info' | 'warn' | 'error'): () => string[] {
  const saved = process.env.LOG_LEVEL;
  let lines: string[] = [];
  let spy: jest.SpyInstance;
  beforeEach(() => {
    process.env.LOG_LEVEL = level;
    resetConfig();
    lines = [];
    spy = jest.spyOn(process[stream], 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
  });
  afterEach(() => {
    spy.mockRestore();
    process.env.LOG_LEVEL = saved;
    resetConfig();
  });
  return () => lines;
}
