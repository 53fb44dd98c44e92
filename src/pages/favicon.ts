// The pages' icon, served by us (a page without one makes the browser ask for /favicon.ico,
// which is the API's 404).
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#2f5bd3"/>' +
  '<path d="M9 8v16h14" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>' +
  '</svg>';
