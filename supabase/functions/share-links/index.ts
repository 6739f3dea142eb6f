// Entry point of the share-links edge function (see handler.ts).
import { misconfigured } from '../_shared/http.ts';
import { handle, type ShareLinksDeps, shareLinksDepsFromEnv } from './handler.ts';

let deps: ShareLinksDeps | undefined;
let problem: unknown;
try {
  deps = shareLinksDepsFromEnv(Deno.env.toObject());
} catch (e) {
  problem = e;
}

Deno.serve((request) => (deps ? handle(request, deps) : misconfigured(request, problem)));
