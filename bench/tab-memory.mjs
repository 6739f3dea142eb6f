// What the benchmarks read of a process from /proc: a Chromium tab's memory, and the CPU a process or thread used.
import { readFileSync } from 'node:fs';

const MiB = 1024 * 1024;

/**
 * A /proc stat file (`/proc/PID/stat`, `/proc/PID/task/TID/stat`): the command name, the parent's pid and the CPU
 * used so far (user + system, in seconds); null once the process or thread is gone.
 */
export function procStat(path) {
  try {
    const raw = readFileSync(path, 'utf8');
    // The name is in parentheses and may hold ") " itself: the fields are what follows the last one, from
    // state (0) and ppid (1) to utime (11) and stime (12), in clock ticks of 1/100 s.
    const close = raw.lastIndexOf(') ');
    const fields = raw.slice(close + 2).split(' ');
    return { name: raw.slice(raw.indexOf('(') + 1, close), ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return null;
  }
}

/** A process's resident set, in bytes (0 once it is gone). */
export function vmRss(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * A process's private memory footprint, in bytes: its anonymous resident memory and its swap, as Chromium
 * counts a process's footprint on Linux and Android (statm's resident minus shared, plus swap). Unlike VmRSS it
 * leaves out pages shared with other processes: Chromium's own binary and libraries, and shared-memory buffers.
 */
export function footprint(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return (kb('RssAnon') + kb('VmSwap')) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Chromium keeps spare renderers, so the tab's is found by touching 128 MiB in the page and seeing which
 * renderer grew; the memory is let go again before anything is measured.
 */
export async function tabRenderer(page, candidates) {
  const before = new Map(candidates.map((pid) => [pid, vmRss(pid)]));
  const footprints = new Map(candidates.map((pid) => [pid, footprint(pid)]));
  await page.evaluate(() => {
    window.benchMarker = new Uint8Array(128 * 1024 * 1024).fill(1);
  });
  const grown = candidates.filter((pid) => vmRss(pid) - before.get(pid) > 96 * MiB);
  await page.evaluate(() => {
    delete window.benchMarker;
  });
  if (grown.length !== 1) throw new Error(`cannot tell the tab's renderer among ${candidates.join(', ')}`);
  return { pid: grown[0], rssBefore: before.get(grown[0]), footprintBefore: footprints.get(grown[0]) };
}
