// GET /reference: the API reference, rendered in the browser by Redoc 2 from the service's own
// /api/openapi.json. Redoc's standalone bundle and the few lines that start it are files of
// ours under /static/ (no inline script, so the page's CSP needs none); system fonts only.
import type { StaticFile } from './assets.js';
import { pageHead, type PageOptions } from './layout.js';

export function renderReference(options: PageOptions & { redoc: StaticFile; script: StaticFile }): string {
  const graphiql = options.graphiql ? '<a href="/graphql">GraphiQL</a>' : '';
  return `<!doctype html>
<html lang="en">
<head>
${pageHead('Learnstream API reference', 'Every REST route of Learnstream: requests, responses, errors, webhooks.')}
<script defer src="${options.redoc.path}"></script>
<script defer src="${options.script.path}"></script>
</head>
<body class="reference-body">
<header class="topbar">
<strong><a href="/">Learnstream</a></strong>
<nav><a href="/">Home</a>${graphiql}<a href="/console">Console</a><a href="/api/openapi.json">openapi.json</a><a href="/api/asyncapi.json">asyncapi.json</a></nav>
</header>
<div id="redoc"><p class="loading">Loading the API reference…</p></div>
<noscript><p class="loading">The reference is drawn with JavaScript. The document itself is <a href="/api/openapi.json">/api/openapi.json</a>.</p></noscript>
</body>
</html>
`;
}
