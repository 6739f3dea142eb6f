// Where a Chromium's CPU goes, read from /proc (bench/import-bench.mjs, bench/import-s3.bench.ts): its processes by
// kind, a process's threads by name, and the upload bar's time left as seconds.
import { readdirSync, readFileSync } from 'node:fs';
import { procStat } from './tab-memory.mjs';

/**
 * The processes of the Chromium that keeps its profile in `profileDir` (its browser process and descendants), each
 * with its kind (`browser`, `renderer`, `gpu-process`, `utility`…) and the CPU it has used so far, in seconds.
 */
export function chromiumProcesses(profileDir) {
  const procs = readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map((pid) => {
      try {
        const stat = procStat(`/proc/${pid}/stat`);
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return stat && { pid: Number(pid), ppid: stat.ppid, cmd, type: /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser', cpu: stat.cpu };
      } catch {
        return null;
      }
    })
    .filter(Boolean);
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const ours = (p) => {
    for (let q = p; q; q = byPid.get(q.ppid)) if (q.cmd.includes(profileDir) && !q.cmd.includes('--type=')) return true;
    return false;
  };
  return procs.filter(ours);
}

/** CPU seconds used so far by each thread of `pid`, summed by the thread's name (CrRendererMain, DedicatedWorker…). */
export function cpuByThread(pid) {
  const byName = /** @type {Record<string, number>} */ ({});
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    const stat = procStat(`/proc/${pid}/task/${tid}/stat`);
    if (!stat) continue; // the thread ended
    const name = stat.name.replace(/\d+$/, '');
    byName[name] = (byName[name] ?? 0) + stat.cpu;
  }
  return byName;
}

/** The pid of that Chromium's browser process. */
export const browserProcessOf = (profileDir) => chromiumProcesses(profileDir).find((p) => p.type === 'browser')?.pid;

export const renderersOf = (profileDir) => chromiumProcesses(profileDir).filter((p) => p.type === 'renderer').map((p) => p.pid);

/** CPU seconds used so far by each kind of process of that Chromium. */
export function cpuByKind(profileDir) {
  const byKind = /** @type {Record<string, number>} */ ({});
  for (const p of chromiumProcesses(profileDir)) byKind[p.type] = (byKind[p.type] ?? 0) + p.cpu;
  return byKind;
}

/** The CPU used between two `cpuByKind` readings, largest first: "renderer 40.1 s, browser 12.0 s…". */
export function cpuSpent(before, after) {
  return Object.entries(after)
    .map(([kind, s]) => [kind, s - (before[kind] ?? 0)])
    .filter(([, s]) => s >= 0.05)
    .sort((x, y) => y[1] - x[1])
    .map(([kind, s]) => `${kind} ${s.toFixed(1)} s`)
    .join(', ');
}

/** "about 3 min left", "12 s left", "about 1 h 5 min left", "finishing": seconds; null while estimating. */
export function secondsLeft(text) {
  if (/finishing/.test(text)) return 0;
  const h = /(\d+) h/.exec(text);
  const m = /(\d+) min left/.exec(text);
  const s = /(\d+) s left/.exec(text);
  if (!h && !m && !s) return null;
  return (h ? Number(h[1]) * 3600 : 0) + (m ? Number(m[1]) * 60 : 0) + (s ? Number(s[1]) : 0);
}

/**
 * CPU seconds used so far by every process on the machine, summed by command name (chromium, postgres, radosgw,
 * deno…): where a machine's cores went while the browser shared them with the servers it talks to.
 */
export function cpuByCommand() {
  const byName = /** @type {Record<string, number>} */ ({});
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    const stat = procStat(`/proc/${pid}/stat`);
    if (stat) byName[stat.name] = (byName[stat.name] ?? 0) + stat.cpu;
  }
  return byName;
}
