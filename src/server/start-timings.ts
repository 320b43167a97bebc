/**
 * Where a start's time goes, phase by phase, for its log line and the startup bench
 * (bench/benchmarks/startup.ts reads `startTimings` from the log). Times are milliseconds of the
 * server process's clock (performance.now(): from the process's start).
 */
export interface StartTimings {
  /** Each phase of the start's critical path, in order, with its milliseconds. */
  phases: { name: string; ms: number }[];
  /** The web build's own duration when one ran beside the start (a child process); null when none ran. */
  webBuildMs: number | null;
  /** From the process's start until the server listened. */
  totalMs: number;
}

export function startTimer() {
  const phases: StartTimings['phases'] = [];
  let last = 0;
  return {
    /** Ends the phase running since the previous mark (the first: since the process started). */
    mark(name: string) {
      const now = performance.now();
      phases.push({ name, ms: Math.round(now - last) });
      last = now;
    },
    /** A phase measured elsewhere (a compile before this module loaded) taken out of the next one. */
    split(name: string, ms: number) {
      phases.push({ name, ms: Math.round(ms) });
      last += ms;
    },
    done(webBuildMs: number | null): StartTimings {
      return {
        phases,
        webBuildMs: webBuildMs === null ? null : Math.round(webBuildMs),
        totalMs: Math.round(performance.now()),
      };
    },
  };
}

export type StartTimer = ReturnType<typeof startTimer>;

/** "4.2 s: node 0.3 s, database + migrations 0.4 s, ...; web build 3.1 s beside". */
export function describeStartTimings(timings: StartTimings): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const phases = timings.phases.map((phase) => `${phase.name} ${seconds(phase.ms)}`).join(', ');
  const web = timings.webBuildMs === null ? '' : `; web build ${seconds(timings.webBuildMs)} beside them`;
  return `${seconds(timings.totalMs)} from the process's start: ${phases}${web}`;
}
