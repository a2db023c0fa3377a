/**
 * The console's production build (console/build.ts): under 250 KB of compressed script on first load (issue #23),
 * and a page that loads only its own relative assets, so the edge node serves it offline.
 */
import { gzipSync } from 'node:zlib';
import { CONSOLE_CSP, consoleFiles } from '../../console/build';

describe('the console build', () => {
  it('loads under 250 KB of compressed script', async () => {
    // Act
    const files = await consoleFiles();
    const script = files.filter((f) => f.contentType.startsWith('text/javascript'));

    // Assess
    expect(script.map((f) => f.name)).toEqual(['app.js']);
    expect(gzipSync(script[0].body, { level: 9 }).length).toBeLessThan(250 * 1024);
  }, 60_000);

  it('names only its own relative assets, and its policy allows scripts from its own origin only', async () => {
    // Act
    const page = (await consoleFiles()).find((f) => f.name === 'index.html')!.body.toString();
    const references = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);

    // Assess
    expect(references.sort()).toEqual(['app.css', 'app.js']);
    expect(page).not.toMatch(/https?:\/\//);
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
  });
});
