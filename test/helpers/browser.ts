/**
 * Debian's Chromium driven by playwright-core (nothing downloads a browser). Where Chromium is missing, browser
 * tests are skipped, unless REQUIRE_BROWSER=1 (set by .ci/run, which installs it).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const browserAvailable = existsSync(CHROMIUM);
if (!browserAvailable && process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but there is no Chromium at ${CHROMIUM}`);

// Flags for a closed network: without the background-networking ones Chromium keeps dialling out at start.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: FLAGS });

/** `describe` where Chromium is installed, `describe.skip` where it is not. */
export const describeInBrowser = (name: string, body: () => void) => (browserAvailable ? describe : describe.skip)(name, body);
