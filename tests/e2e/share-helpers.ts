import type { Page } from '@playwright/test';
import type { Person, SupabaseWorld } from './supabase-world';

export interface CreatedLink {
  link: { id: string };
  token: string;
}

/**
 * A share link made by `who` from their own signed-in page, so the call goes through the project's gateway to
 * the share-links function as the app's own call does. `body` is the function's `create` request.
 */
export async function createShareLink(page: Page, world: SupabaseWorld, who: Person, body: Record<string, unknown>): Promise<CreatedLink> {
  const api = await world.api(who);
  const { data } = await api.auth.getSession();
  const jwt = data.session?.access_token;
  if (!jwt) throw new Error(`${who.name} has no session`);
  return page.evaluate(
    async ({ url, jwt, body }) => {
      const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`share-links ${res.status}: ${await res.text()}`);
      return (await res.json()) as CreatedLink;
    },
    { url: `${world.projectUrl}/functions/v1/share-links`, jwt, body: { op: 'create', ...body } },
  );
}
