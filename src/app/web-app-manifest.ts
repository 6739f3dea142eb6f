/**
 * The web app manifest is linked from here, not from index.html, so that a public link's page (`/s/…`) has none:
 * "Add to Home Screen" there keeps the album's own address instead of installing Shoebox at its start URL.
 * Every other page links it before anything renders, as index.html did.
 */
export function linkWebAppManifest(doc: Document, path: string): void {
  if (path === '/s' || path.startsWith('/s/')) return;
  if (doc.querySelector('link[rel="manifest"]')) return;
  const link = doc.createElement('link');
  link.rel = 'manifest';
  link.href = '/manifest.webmanifest';
  doc.head.append(link);
}
