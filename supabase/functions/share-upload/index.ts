// Entry point of the share-upload edge function (see handler.ts).
import { misconfigured } from '../_shared/http.ts';
import { handle, type UploadDeps, uploadDepsFromEnv } from './handler.ts';

let deps: UploadDeps | undefined;
let problem: unknown;
try {
  deps = uploadDepsFromEnv(Deno.env.toObject());
} catch (e) {
  problem = e;
}

Deno.serve((request) => (deps ? handle(request, deps) : misconfigured(request, problem)));
