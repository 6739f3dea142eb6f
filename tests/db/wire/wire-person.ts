/** People of the emulated project, each signed up through the Supabase adapter as the app signs someone up. */
import { createSupabaseBackend, type SupabaseBackend } from '../../../src/backend/supabase/create-supabase-backend';
import { SilentWebSocket } from '../../../src/testing/supabase-wire-stub';
import { placeOriginalsWith } from '../../../src/testing/contract/contract-fixtures';
import type { WireEmulator } from './wire-emulator';

export interface WirePerson {
  backend: SupabaseBackend;
  id: string;
  name: string;
}

let accounts = 0;

/** A new account named `${label} n`, signed in; the emulated project asks for no e-mail confirmation. */
export async function signUpPerson(wire: WireEmulator, label: string): Promise<WirePerson> {
  const n = ++accounts;
  const name = `${label} ${n}`;
  const backend = placeOriginalsWith(createSupabaseBackend({ url: wire.url, anonKey: wire.anonKey, fetch: wire.fetch, persistSession: false, webSocket: SilentWebSocket as never }), wire.placeOriginal);
  const email = `${label.toLowerCase()}${n}.${crypto.randomUUID().slice(0, 8)}@example.test`;
  const session = await backend.auth.signUp(email, 'correct horse battery staple', name);
  if (!session) throw new Error('sign-up gave no session: the emulated project asks for no email confirmation');
  return { backend, id: session.userId, name };
}
