/**
 * The server's entry as TypeScript (`node --import tsx src/server/main.ts`: npm run dev:server,
 * the e2e and API tiers). `npm start` runs the same start compiled (scripts/start.mjs).
 */
import { failedToStart, startServer } from './start';

startServer().catch(failedToStart);
