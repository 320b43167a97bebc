import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { ensureWebBuilt } from '../scripts/web-build';
import {
  CHROMIUM_ARGS,
  chromiumPath,
  isChromiumInstalled,
  missingChromiumMessage,
} from './fixtures/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumWsEndpoint: string;
  }
}

/**
 * Once per e2e run: check Chromium, build the web app if stale, launch one browser that every
 * test file connects to (a launch costs about a second; a context per test costs milliseconds).
 */
export default async function setup(project: TestProject) {
  const executablePath = chromiumPath();
  if (!isChromiumInstalled(executablePath)) {
    // Printed and exited rather than thrown: Vitest would wrap a thrown error in a stack trace
    // and a "global setup failed" banner, and the fix is one line.
    console.error(missingChromiumMessage(executablePath));
    process.exit(1);
  }
  ensureWebBuilt();
  const server = await chromium.launchServer({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
