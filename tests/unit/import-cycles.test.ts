// No circle of imports in src/, counting what lint's no-cycle rule leaves out: type-only imports and import().
// A circle of types only still makes two files that cannot be read, moved or changed apart.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const src = join(root, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function graph(): Map<string, string[]> {
  const files = new Set(sources(src));
  const resolve = (from: string, spec: string) => {
    const base = normalize(join(dirname(from), spec));
    return ['', '.ts', '.tsx'].map((ext) => base + ext).find((p) => files.has(p));
  };
  return new Map(
    [...files].map((file) => {
      const deps = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => resolve(file, (m[1] ?? m[2])!)).filter((d): d is string => d !== undefined);
      return [file, deps];
    }),
  );
}

/** The strongly connected groups of more than one file (Tarjan). */
function circles(g: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(relative(root, w));
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports in src/', () => {
  it('make no circle, type-only and import() included', () => {
    expect(circles(graph())).toEqual([]);
  });

  it('would find one', () => {
    const g = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/a.ts']],
      ['/c.ts', ['/a.ts']],
    ]);
    expect(circles(g).map((c) => c.length)).toEqual([2]);
  });
});
