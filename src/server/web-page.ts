/**
 * The web view's page shell, served at `GET /` without a token: it holds no run data, only the place
 * the app renders into and links to its script and style (`/web/app.js`, `/web/app.css`, bundled at
 * build time from src/web/ by scripts/bundle-web.mjs), so it works offline and loads nothing from
 * another site. The app signs in by itself (docs/decisions/0103-server-answers-only-its-own-names.md).
 */
export const WEB_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Attractor</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/web/app.css">
<script type="module" src="/web/app.js"></script>
</head>
<body>
<div id="root"><noscript>The Attractor web view needs JavaScript.</noscript></div>
</body>
</html>
`;

/**
 * Served with the page: only this server's own script and style run (`'self'`; every JSON and SSE answer
 * is sent with its own content type and `nosniff`, so none can be loaded as a script), it talks only to
 * this server, and no other site may frame it or receive its forms.
 */
export const WEB_PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
