import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** Fields of /proc/PID/stat after the command name (which may hold spaces): [0] is field 3, state. */
function statFields(pid: string | number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** user + system CPU of a process (its reaped children too), in ms; null where /proc cannot tell. */
export function processCpuMs(pid: number): number | null {
  const fields = statFields(pid);
  if (!fields) return null;
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return (ticks / TICKS_PER_SECOND) * 1000;
}

/** The same for every live process of a process group, e.g. `npm start` and the server it runs. */
export function processGroupCpuMs(group: number): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const entry of entries) {
    const fields = statFields(entry);
    if (!fields || Number(fields[2]) !== group) continue;
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return (ticks / TICKS_PER_SECOND) * 1000;
}
