// Entry point of the purge edge function (see handler.ts).
import { misconfigured } from '../_shared/http.ts';
import { handle, type PurgeDeps, purgeDepsFromEnv } from './handler.ts';

let deps: PurgeDeps | undefined;
let problem: unknown;
try {
  deps = purgeDepsFromEnv(Deno.env.toObject());
} catch (e) {
  problem = e;
}

Deno.serve((request) => (deps ? handle(request, deps) : misconfigured(request, problem)));
