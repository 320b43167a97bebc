export interface BenchContext {
  /** The real server under test, started on a fresh data folder for this run. */
  baseUrl: string;
  /** Its process id, for measures of its memory. */
  serverPid: number;
  durationSeconds: number;
  connections: number;
}

/** One HTTP endpoint hammered by autocannon. */
export interface LoadResult {
  kind: 'load';
  name: string;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number };
  throughputBytesPerSecond: number;
  /** Connection errors, timeouts and non-2xx answers: any of them makes the numbers suspect. */
  failures: number;
  requests: number;
  /** The machine's load while it was measured (bench/run.ts fills it in when the benchmark did not). */
  load?: MachineLoad;
}

/** os.loadavg()'s one-minute figure and the CPU count, printed beside each figure. */
export interface MachineLoad {
  average1: number;
  cpus: number;
}

/** One number measured once (or as a median), with the budget it must stay within. */
export interface MeasureResult {
  kind: 'measure';
  name: string;
  value: number;
  unit: 'ms' | 'bytes' | 'CU' | 'lamports' | '%' | 'deliveries';
  /** The limit `value` must stay within: at most, or at least when `atLeast` says so. */
  budget: number;
  atLeast?: boolean;
  detail?: string;
  /** The machine's load while it was measured (bench/run.ts fills it in when the benchmark did not). */
  load?: MachineLoad;
}

export type BenchResult = LoadResult | MeasureResult;

export interface Benchmark {
  name: string;
  description: string;
  /**
   * Needs no shared server (it runs in-process, or starts servers of its own): when every selected
   * benchmark says so, none is started.
   */
  inProcess?: boolean;
  run(context: BenchContext): Promise<BenchResult[]>;
}
