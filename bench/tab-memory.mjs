// The memory of one Chromium tab, read from /proc: what the benchmarks that hold a tab to a memory target sample.
import { readFileSync } from 'node:fs';

const MiB = 1024 * 1024;

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
 * Chromium keeps spare renderers, so the tab's is found by touching 128 MiB in the page and seeing which
 * renderer grew; the memory is let go again before anything is measured.
 */
export async function tabRenderer(page, candidates) {
  const before = new Map(candidates.map((pid) => [pid, vmRss(pid)]));
  await page.evaluate(() => {
    window.benchMarker = new Uint8Array(128 * 1024 * 1024).fill(1);
  });
  const grown = candidates.filter((pid) => vmRss(pid) - before.get(pid) > 96 * MiB);
  await page.evaluate(() => {
    delete window.benchMarker;
  });
  if (grown.length !== 1) throw new Error(`cannot tell the tab's renderer among ${candidates.join(', ')}`);
  return { pid: grown[0], rssBefore: before.get(grown[0]) };
}
