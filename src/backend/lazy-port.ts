/**
 * A port whose code loads with its first call: `load` gives the real port, and each method waits for it. The
 * methods are whatever the loaded port has (its type is checked where `load` makes it), so a method added to a
 * port is added in its module alone. A port is never a thenable: `then` is not one of its methods.
 */
export function lazyPort<P extends object>(load: () => Promise<P>): P {
  let loading: Promise<P> | null = null;
  const port = (): Promise<P> => {
    loading ??= load().catch((e: unknown) => {
      // A chunk that failed to load (offline, a new deploy) is asked for again on the next call.
      loading = null;
      throw e;
    });
    return loading;
  };
  const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy({} as P, {
    get(own, name) {
      // A method set on the port itself (a test's stand-in) is that method.
      if (Reflect.has(own, name)) return Reflect.get(own, name);
      if (typeof name !== 'string' || name === 'then') return undefined;
      let method = methods.get(name);
      if (!method) {
        method = (...args) => port().then((p) => (p[name as keyof P] as (...a: unknown[]) => unknown).apply(p, args));
        methods.set(name, method);
      }
      return method;
    },
  });
}
