// The layers of ARCHITECTURE.md are lint rules (eslint.config.js, [Note: Layers checked by lint]): each case is
// an import a maintainer might write, linted as if it stood in that file, and must be refused (or, for the
// allowed ones, pass) with the project's own configuration.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const eslint = new ESLint({ cwd: root });

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// The first lint loads the TypeScript resolver and parser: seconds on a busy machine.
describe('layers checked by lint', { timeout: 60_000 }, () => {
  const refused: [string, string, string][] = [
    ['the backend imports the upload engine', 'src/backend/s3/example.ts', "import { UploadEngine } from '../../upload/upload-engine';\nexport const x = UploadEngine;\n"],
    ['the backend imports a feature', 'src/backend/supabase/example.ts', "import { useAlbums } from '../../features/albums/use-albums';\nexport const x = useAlbums;\n"],
    ['a screen imports an adapter', 'src/app/routes/example.tsx', "import { createLocalBackend } from '../../backend/local/create-local-backend';\nexport const x = createLocalBackend;\n"],
    ['a feature imports an adapter', 'src/features/albums/example.ts', "import { SupabaseRealtime } from '../../backend/supabase/supabase-realtime';\nexport const x = SupabaseRealtime;\n"],
    ['the upload engine imports an adapter', 'src/upload/example.ts', "import { S3Files } from '../backend/s3/s3-files';\nexport const x = S3Files;\n"],
    ['one adapter imports another', 'src/backend/local/example.ts', "import { SupabaseRealtime } from '../supabase/supabase-realtime';\nexport const x = SupabaseRealtime;\n"],
    ['a feature imports a screen', 'src/features/items/example.ts', "import { routes } from '../../app/router';\nexport const x = routes;\n"],
    ['a helper imports a feature', 'src/lib/example.ts', "import { useAlbums } from '../features/albums/use-albums';\nexport const x = useAlbums;\n"],
    ['production code imports test support', 'src/upload/example.ts', "import { resetLimits } from '../testing/limits';\nexport const x = resetLimits;\n"],
    ['a screen imports a link backend', 'src/app/routes/example.tsx', "import { createLinkVisitorBackend } from '../../backend/link/visitor-backend';\nexport const x = createLinkVisitorBackend;\n"],
    ['a feature imports a link backend', 'src/features/link-page/example.ts', "import { LinkVisitor } from '../../backend/link/link-visitor';\nexport const x = LinkVisitor;\n"],
    ['the service worker imports the local backend', 'src/sw/example.ts', "import { LocalDb } from '../backend/local/local-db';\nexport const x = LocalDb;\n"],
    ['the service worker imports a feature', 'src/sw/example.ts', "import { useAlbums } from '../features/albums/use-albums';\nexport const x = useAlbums;\n"],
    ['a link backend imports the local backend', 'src/backend/link/example.ts', "import { LocalDb } from '../local/local-db';\nexport const x = LocalDb;\n"],
    ['the local backend imports a link backend', 'src/backend/local/example.ts', "import { LinkVisitor } from '../link/link-visitor';\nexport const x = LinkVisitor;\n"],
    ['a helper imports the ports', 'src/lib/example.ts', "import type { AlbumsPort } from '../backend/ports';\nexport type X = AlbumsPort;\n"],
    ['the domain imports a helper', 'src/domain/example.ts', "import { toBase64Url } from '../lib/base64';\nexport const x = toBase64Url;\n"],
    ['a feature imports one it is not made of', 'src/features/albums/example.ts', "import { AlbumGrid } from '../items/album-grid';\nexport const x = AlbumGrid;\n"],
    ['a feature imports one made of it (a loop)', 'src/features/social/example.ts', "import { Viewer } from '../viewer/viewer';\nexport const x = Viewer;\n"],
    ['what features share imports a feature', 'src/shared/example.ts', "import { useAlbums } from '../features/albums/use-albums';\nexport const x = useAlbums;\n"],
    ['a screen imports a contract suite', 'src/app/example.ts', "import { describeDataPortsContract } from '../testing/contract/data-ports-contract';\nexport const x = describeDataPortsContract;\n"],
  ];
  it.each(refused)('refuses: %s', async (_, file, code) => {
    expect(await ruleIds(file, code)).toContain('import-x/no-restricted-paths');
  });

  const allowed: [string, string, string][] = [
    ['create-backend.ts imports the adapters', 'src/backend/create-backend.ts', "import { createLocalBackend } from './local/create-local-backend';\nexport const x = createLocalBackend;\n"],
    ['a screen imports a feature and the ports', 'src/app/routes/example.tsx', "import { useAlbums } from '../../features/albums/use-albums';\nimport type { AlbumsPort } from '../../backend/ports';\nimport type { Album } from '../../backend/entities';\nexport const x = useAlbums;\nexport type A = Album;\nexport type D = AlbumsPort;\n"],
    ['the media pipeline speaks the domain\'s words', 'src/media/example.ts', "import type { ItemMetadata } from '../domain/entities';\nexport type M = ItemMetadata;\n"],
    ['the viewer is made of comments and hearts', 'src/features/viewer/example.ts', "import { FavoriteButton } from '../social/favorite-button';\nexport const x = FavoriteButton;\n"],
    ['a feature uses what features share', 'src/features/albums/example.ts', "import { albumKeys } from '../../shared/album-keys';\nexport const x = albumKeys;\n"],
    ['create-backend.ts imports the link backends', 'src/backend/create-backend.ts', "import { createLinkVisitorBackend } from './link/visitor-backend';\nexport const x = createLinkVisitorBackend;\n"],
    ['a link backend composes the S3 classes', 'src/backend/link/example.ts', "import { S3Files } from '../s3/s3-files';\nexport const x = S3Files;\n"],
    ['the service worker imports lib and the upload store it owns', 'src/sw/example.ts', "import { toBase64Url } from '../lib/base64';\nimport { UploadStore } from '../upload/upload-store';\nexport const x = [toBase64Url, UploadStore];\n"],
    ['the Supabase backend composes the S3 files adapter', 'src/backend/supabase/example.ts', "import { S3Files } from '../s3/s3-files';\nexport const x = S3Files;\n"],
    ['a test imports test support', 'src/upload/example.browser.test.ts', "import { resetLimits } from '../testing/limits';\nexport const x = resetLimits;\n"],
  ];
  it.each(allowed)('allows: %s', async (_, file, code) => {
    expect(await ruleIds(file, code)).toEqual([]);
  });

  const dir = mkdtempSync(join(root, 'src/lib/cycle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('refuses an import cycle', async () => {
    writeFileSync(join(dir, 'one.ts'), "import { two } from './two';\nexport const one = (): number => two() + 1;\n");
    writeFileSync(join(dir, 'two.ts'), "import { one } from './one';\nexport const two = (): number => one() - 1;\n");
    const rel = dir.slice(root.length);
    expect(await ruleIds(join(rel, 'one.ts'), "import { two } from './two';\nexport const one = (): number => two() + 1;\n")).toContain('import-x/no-cycle');
  });
});
