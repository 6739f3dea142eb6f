/**
 * The page a browser or a chat app's link preview gets for `GET …/share-open?token=…`: Open Graph tags (the
 * album's title, a line about it, and a presigned preview of its cover), a link and a meta refresh to the
 * app's `/s/<token>`. A link with a password, or one that is not valid, gets the same page without any title or
 * picture. Nothing here counts a view. Every piece of text is HTML-escaped; the page runs no script.
 */

export interface OgContent {
  title: string;
  description: string;
  imageUrl: string | null;
}

const GENERIC: OgContent = { title: 'A shared album', description: 'Open the link to see it.', imageUrl: null };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function ogPage(target: string, content: OgContent | null): Response {
  const c = content ?? GENERIC;
  const t = escapeHtml(c.title);
  const d = escapeHtml(c.description);
  const href = escapeHtml(target);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${t}</title>
<meta property="og:type" content="website">
<meta property="og:title" content="${t}">
<meta property="og:description" content="${d}">
<meta property="og:url" content="${href}">
${c.imageUrl ? `<meta property="og:image" content="${escapeHtml(c.imageUrl)}">\n<meta name="twitter:card" content="summary_large_image">\n` : ''}<meta http-equiv="refresh" content="0; url=${href}">
</head>
<body>
<p><a href="${href}">${t}</a></p>
</body>
</html>
`;
  return new Response(html, {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; img-src https: http:; base-uri 'none'; form-action 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

/** The app's page for the token: `${SHOEBOX_SITE_URL's first origin}/s/<token>`. */
export function appLink(siteOrigin: string, token: string): string {
  return `${siteOrigin}/s/${encodeURIComponent(token)}`;
}
