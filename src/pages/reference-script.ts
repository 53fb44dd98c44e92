// The few lines that start Redoc on /reference, served as a file of ours (/static/reference.<hash>.js)
// so that the page needs no inline script.

/** Redoc's options: system fonts (it asks for none itself), and the top bar kept in view. */
const REDOC_OPTIONS = {
  theme: {
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
      code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace' },
    },
    colors: { primary: { main: '#2f5bd3' } },
  },
  // The sticky top bar: Redoc scrolls anchors to just below it.
  scrollYOffset: '.topbar',
  expandResponses: '200,201,202,204',
  requiredPropsFirst: true,
  nativeScrollbars: true,
};

/** The script that starts Redoc on the page (served as /static/reference.<hash>.js). */
export const REFERENCE_INIT_JS = `// Renders Learnstream's API reference from /api/openapi.json (src/pages/reference.ts).
(function () {
  var element = document.getElementById('redoc');
  Redoc.init('/api/openapi.json', ${JSON.stringify(REDOC_OPTIONS)}, element, function (error) {
    if (error) element.textContent = 'The reference could not be rendered: ' + error + '. The document itself is at /api/openapi.json.';
  });
})();
`;
