// Debian's Chromium, headless, driven by playwright-core (which downloads no browser of its own). The e2e suite
// uses it where a person's browser is the point: WordPress's "Authorize Application" page runs its own script
// (auth-app.js), which the plain-HTTP exchange in approve-application.ts does not. `.ci/run` installs the
// `chromium` package and sets BLOGCTL_E2E_REQUIRE_BROWSER=1, so CI never skips those tests.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = process.env['BLOGCTL_E2E_CHROMIUM'] ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or undefined when they can; a requirement turns the reason into a failure. */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
  if (process.env['BLOGCTL_E2E_REQUIRE_BROWSER'] === '1')
    throw new Error(`BLOGCTL_E2E_REQUIRE_BROWSER=1: ${reason}`);
  return reason;
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // As root in a container, without the network: no sandbox, and none of Chromium's background connections.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
