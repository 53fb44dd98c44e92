// What every page's <head> holds: our stylesheet and icon (files of ours under /static/), no font
// or script from anywhere else.
import { FAVICON, PAGES_STYLESHEET } from './assets.js';

export interface PageOptions {
  /** GraphiQL is served (outside production): only then do the pages link to it. */
  graphiql: boolean;
  /** The tier budget in force (RATE_LIMIT_FREE, RATE_LIMIT_PRO, RATE_LIMIT_WINDOW_S). */
  rateLimit: Readonly<{ free: number; pro: number; windowSeconds: number }>;
}

export function pageHead(title: string, description: string): string {
  return `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="icon" href="${FAVICON.path}" type="image/svg+xml">
<link rel="stylesheet" href="${PAGES_STYLESHEET.path}">`;
}
