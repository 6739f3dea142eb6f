// Entry point of the share-open edge function (see handler.ts).
import { misconfigured } from '../_shared/http.ts';
import { handle, type ShareOpenDeps, shareOpenDepsFromEnv } from './handler.ts';

let deps: ShareOpenDeps | undefined;
let problem: unknown;
try {
  deps = shareOpenDepsFromEnv(Deno.env.toObject());
} catch (e) {
  problem = e;
}

Deno.serve((request) => (deps ? handle(request, deps) : misconfigured(request, problem)));
