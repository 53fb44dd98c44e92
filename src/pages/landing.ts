// GET /: what Learnstream is, on one screen, and where to go next. Plain HTML and our own CSS:
// no script. The sections #getting-started and #rate-limits are where two of the docs entries
// point (src/modules/docs/links.ts).
import { pageHead, type PageOptions } from './layout.js';

interface PageLink {
  href: string;
  title: string;
  text: string;
}

export function landingLinks({ graphiql }: PageOptions): PageLink[] {
  return [
    { href: '/reference', title: 'API reference', text: 'Every REST route with its requests, responses and errors, and the webhooks.' },
    // Production never serves GraphiQL (the contract): no link to a page that is not there.
    ...(graphiql ? [{ href: '/graphql', title: 'GraphiQL', text: 'Explore the GraphQL schema and run queries and subscriptions.' }] : []),
    { href: '/console', title: 'Console', text: 'For admins: webhooks and their deliveries, live events, API keys, page views.' },
    { href: '/api/openapi.json', title: 'OpenAPI 3.1', text: 'The REST surface as a document, for code generators and tools.' },
    { href: '/api/asyncapi.json', title: 'AsyncAPI 3.0', text: 'The events: the webhook channel and the GraphQL subscription.' },
  ];
}

export function renderLanding(options: PageOptions): string {
  const { rateLimit } = options;
  const links = landingLinks(options)
    .map((l) => `<li><a href="${l.href}"><strong>${l.title}</strong><span>${l.text}</span></a></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
${pageHead('Learnstream', 'Learnstream: a learning-platform API served as REST, GraphQL and a live event stream.')}
</head>
<body>
<main class="landing">
<header>
<h1>Learnstream</h1>
<p>A learning-platform API: users, lessons and page views over REST and GraphQL, with every change
published as an event you can subscribe to live or receive as a signed webhook.</p>
</header>
<ul class="links">
${links}
</ul>
<div class="guides">
<section id="getting-started">
<h2>Getting started</h2>
<ol>
<li>Sign in: <code>POST /api/auth/login</code> with <code>{"email", "password"}</code> answers a <code>token</code>.</li>
<li>Call the API with <code>Authorization: Bearer &lt;token&gt;</code>, e.g. <code>GET /api/v1/user/me</code>, or
make an API key (<code>POST /api/v1/api-keys</code>) and send it as <code>X-API-Key</code>.</li>
<li>Follow changes: the <code>events</code> subscription on <code>/graphql</code> (SSE or WebSocket),
<code>GET /api/v1/events</code>, or a webhook endpoint (<code>POST /api/v1/webhooks</code>, for admins).</li>
</ol>
<p>Errors are always <code>{"error": true, "code", "message"}</code> with the HTTP status equal to <code>code</code>.</p>
</section>
<section id="rate-limits">
<h2>Rate limits</h2>
<p>Each caller has a rolling ${rateLimit.windowSeconds}-second budget shared by REST and GraphQL:
${rateLimit.free} requests on Free (and without a token, per address), ${rateLimit.pro} on Pro, no limit on Enterprise.</p>
<p>Every limited response says where you stand in <code>RateLimit</code> and <code>RateLimit-Policy</code>
(and <code>X-RateLimit-*</code>); over the limit you get <code>429</code> with <code>Retry-After</code>.
These pages, health checks and metrics are not limited.</p>
</section>
</div>
<footer>Health: <a href="/healthz">/healthz</a> · <a href="/readyz">/readyz</a></footer>
</main>
</body>
</html>
`;
}
