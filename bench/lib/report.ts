import os from 'node:os';
import type { BenchResult, LoadResult, MachineLoad, MeasureResult } from '../types';

/** The machine's load now: one-minute load average and CPU count. */
export const machineLoad = (): MachineLoad => ({ average1: os.loadavg()[0]!, cpus: os.cpus().length });

/** "1.23 / 2 CPUs": beside each figure, since on a shared machine the numbers follow it. */
const formatLoad = (load: MachineLoad | undefined) =>
  load ? `${load.average1.toFixed(2)} / ${load.cpus} CPUs` : '';

/** Columns listed in `leftAligned` are text; the others are numbers, aligned right. */
function table(header: string[], rows: string[][], leftAligned: number[] = [0]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        leftAligned.includes(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;

export function formatLoadTable(results: LoadResult[]): string {
  return table(
    ['endpoint', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'throughput/s', 'requests', 'failed', 'load'],
    results.map((result) => [
      result.name,
      Math.round(result.requestsPerSecond).toLocaleString('en-US'),
      String(result.latencyMs.p50),
      String(result.latencyMs.p90),
      String(result.latencyMs.p99),
      formatBytes(result.throughputBytesPerSecond),
      result.requests.toLocaleString('en-US'),
      String(result.failures),
      formatLoad(result.load),
    ]),
  );
}

export const isOverBudget = (result: MeasureResult) =>
  result.atLeast ? result.value < result.budget : result.value > result.budget;

export function formatMeasureTable(results: MeasureResult[]): string {
  const show = (result: MeasureResult, value: number) => {
    if (result.unit === 'ms') return `${Math.round(value)} ms`;
    if (result.unit === 'bytes') return formatBytes(value);
    if (result.unit === '%') return `${value}%`;
    return `${value.toLocaleString('en-US')} ${result.unit}`;
  };
  return table(
    ['measure', 'value', 'budget', 'verdict', 'load', 'detail'],
    results.map((result) => [
      result.name,
      show(result, result.value),
      `${result.atLeast ? 'at least ' : ''}${show(result, result.budget)}`,
      isOverBudget(result) ? 'OVER' : 'ok',
      formatLoad(result.load),
      result.detail ?? '',
    ]),
    [0, 4, 5],
  );
}

export function formatReport(results: BenchResult[]): string {
  const loads = results.filter((result): result is LoadResult => result.kind === 'load');
  const measures = results.filter((result): result is MeasureResult => result.kind === 'measure');
  return [loads.length ? formatLoadTable(loads) : '', measures.length ? formatMeasureTable(measures) : '']
    .filter(Boolean)
    .join('\n\n');
}
