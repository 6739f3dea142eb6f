/**
 * A share POSTed to /share-target before the service worker controls the page reaches the host itself,
 * which would answer 404 or 405. The dev and preview servers answer as the README asks a static host to:
 * a 303 to the page that says the files were not received. The body is drained, never kept.
 */

/** @type {import('vite').Connect.NextHandleFunction} */
function answer(req, res, next) {
  const path = (req.url ?? '').split('?')[0];
  if (req.method !== 'POST' || path !== '/share-target') return next();
  req.resume();
  res.statusCode = 303;
  res.setHeader('Location', '/share-target?missed=1');
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

/** @returns {import('vite').Plugin} */
export function shareTargetFallback() {
  return {
    name: 'shoebox:share-target-fallback',
    configureServer(server) {
      server.middlewares.use(answer);
    },
    configurePreviewServer(server) {
      server.middlewares.use(answer);
    },
  };
}
