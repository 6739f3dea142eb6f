// Entry point of the storage-sign edge function (see handler.ts).
import { misconfigured } from '../_shared/http.ts';
import { handle, type SignDeps, signDepsFromEnv } from './handler.ts';

let deps: SignDeps | undefined;
let problem: unknown;
try {
  deps = signDepsFromEnv(Deno.env.toObject());
} catch (e) {
  problem = e;
}

Deno.serve((request) => (deps ? handle(request, deps) : misconfigured(request, problem)));
