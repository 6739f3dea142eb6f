/**
 * A port whose code loads with its first call: `load` gives the real port, and every method waits for it. The
 * method names are listed as a record of the port's keys, so a method added to the port and not here fails to
 * compile instead of failing at run time.
 */
export function lazyPort<P extends object>(load: () => Promise<P>, methods: { readonly [K in keyof P]: true }): P {
  let loading: Promise<P> | null = null;
  const port = (): Promise<P> => {
    loading ??= load().catch((e: unknown) => {
      // A chunk that failed to load (offline, a new deploy) is asked for again on the next call.
      loading = null;
      throw e;
    });
    return loading;
  };
  const out: Partial<Record<keyof P, unknown>> = {};
  for (const name of Object.keys(methods) as (keyof P)[]) {
    out[name] = (...args: unknown[]) => port().then((p) => (p[name] as (...a: unknown[]) => unknown).apply(p, args));
  }
  return out as P;
}
