import type { Benchmark } from '../types';
import { chatCluster } from './chat-cluster';
import { chatFanout } from './chat-fanout';
import { createDareBench } from './create-dare';
import { daresRead } from './dares-read';
import { health } from './health';
import { homeLcp } from './home-lcp';
import { notificationsBench } from './notifications';
import { payoutReads } from './payout-reads';
import { program } from './program';
import { startup } from './startup';
import { staticWeb } from './static-web';
import { uploadMemory } from './upload';
import { videoStorage } from './video-storage';

/** Every benchmark `npm run bench` knows, run in this order; `npm run bench -- <name>` picks some. */
export const BENCHMARKS: Benchmark[] = [
  health,
  staticWeb,
  homeLcp,
  createDareBench,
  daresRead,
  payoutReads,
  notificationsBench,
  chatFanout,
  chatCluster,
  startup,
  uploadMemory,
  videoStorage,
  program,
];
