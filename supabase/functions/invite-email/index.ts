// Entry point of the invite-email edge function (see handler.ts).
import { misconfigured } from '../_shared/http.ts';
import { handle, type InviteEmailDeps, inviteEmailDepsFromEnv } from './handler.ts';

let deps: InviteEmailDeps | undefined;
let problem: unknown;
try {
  deps = inviteEmailDepsFromEnv(Deno.env.toObject());
} catch (e) {
  problem = e;
}

Deno.serve((request) => (deps ? handle(request, deps) : misconfigured(request, problem)));
