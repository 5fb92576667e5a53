/**
 * CPU time per request, per process, over a load run: read from /proc (Linux) before and after.
 * It says where a request's cost goes (gateway, service, PostgreSQL, the load generator), and
 * the parts add up to the machine's cores, which bound the rate. Like the rate, it follows the
 * machine's speed of the moment (a slow hour on a shared host raises both): compare a change
 * with the code before it in the same sitting. Elsewhere than Linux the figures are left out.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const ticksPerSecond = (() => {
  if (process.platform !== 'linux') return 0;
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim();
  return Number(out) || 100;
})();

/** User + system CPU milliseconds of one process, null when it is gone (or not on Linux). */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the fields are counted after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** The PostgreSQL backends connected to one database (their process title names it). */
export function backendsOf(database: string): number[] {
  if (process.platform !== 'linux') return [];
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.split(' ').includes(database)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** What a meter watches: a name and how to find its processes (looked up again at each reading). */
export type Watched = Record<string, () => Array<number | undefined>>;

export interface CpuMeter {
  /**
   * Resolves once the watched processes have been quiet (together under 5 % of a core) for
   * `quietMs`, or after `maxMs`: the work a run leaves behind (its counted views written, its
   * caches refilled) is not the next run's to carry, nor to be counted in its CPU per request.
   */
  settled(options: { quietMs: number; maxMs?: number }): Promise<void>;
  start(): void;
  /** CPU milliseconds per request of each watched part since start(), and of this process (`load`). */
  perRequest(requests: number): Record<string, number> | undefined;
}

export function cpuMeter(watched: Watched): CpuMeter {
  /** Each watched part's processes with their CPU milliseconds (a process gone is not listed). */
  const read = () =>
    Object.entries(watched).map(([name, find]) => {
      const readings = new Map<number, number>();
      for (const pid of find()) {
        const ms = pid === undefined ? null : processCpuMs(pid);
        if (pid !== undefined && ms !== null) readings.set(pid, ms);
      }
      return [name, readings] as const;
    });
  let before = new Map<number, number>();
  let ownBefore = process.cpuUsage();
  const total = () => read().reduce((sum, [, readings]) => sum + [...readings.values()].reduce((a, b) => a + b, 0), 0);
  return {
    async settled({ quietMs, maxMs = 30_000 }) {
      if (!ticksPerSecond) return;
      const deadline = Date.now() + maxMs;
      let last = total();
      let quietSince = Date.now();
      while (Date.now() < deadline && Date.now() - quietSince < quietMs) {
        await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
        const now = total();
        if (now - last >= QUIET_WINDOW_MS * QUIET_SHARE) quietSince = Date.now();
        last = now;
      }
    },
    start() {
      before = new Map(read().flatMap(([, readings]) => [...readings]));
      ownBefore = process.cpuUsage();
    },
    perRequest(requests) {
      if (!ticksPerSecond || requests <= 0) return undefined;
      const own = process.cpuUsage(ownBefore);
      const figures: Record<string, number> = {};
      for (const [name, readings] of read()) {
        // A process that started during the run (a new pool connection) counts from zero; one
        // gone before the end is left out (its last reading is lost with it).
        let spent = 0;
        for (const [pid, ms] of readings) spent += ms - (before.get(pid) ?? 0);
        figures[name] = round(spent / requests);
      }
      figures.load = round((own.user + own.system) / 1000 / requests);
      return figures;
    },
  };
}

const QUIET_WINDOW_MS = 250;
const QUIET_SHARE = 0.05;
const round = (ms: number) => Math.round(ms * 1000) / 1000;
