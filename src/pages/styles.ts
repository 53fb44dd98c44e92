// The pages' own stylesheet, served from /static/ under a content-hashed name. System fonts only:
// nothing is fetched from another origin, and nothing needs a web font to look right.
export const PAGES_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f7f7f5; --fg: #1d1f23; --muted: #5b616b; --card: #ffffff; --line: #dfe1e5;
  --accent: #2f5bd3; --accent-fg: #ffffff; --code: #eef0f3;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 16px; line-height: 1.5;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #15171a; --fg: #e8e9eb; --muted: #a3a9b3; --card: #1e2125; --line: #30343a; --accent: #8aa8ff; --accent-fg: #10131a; --code: #262a30; }
}
/* Scoped to our own markup: Redoc styles everything inside #redoc itself. */
body { margin: 0; background: var(--bg); color: var(--fg); }
.landing *, .topbar * { box-sizing: border-box; }
.landing a, .topbar a { color: var(--accent); }
.landing code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.875em; background: var(--code); padding: 0.1em 0.3em; border-radius: 4px; }

.landing { max-width: 68rem; margin: 0 auto; padding: 1.5rem 1.25rem 2rem; }
.landing header h1 { margin: 0; font-size: 2rem; letter-spacing: -0.01em; }
.landing header p { margin: 0.35rem 0 0; color: var(--muted); max-width: 46rem; }
.links { list-style: none; padding: 0; margin: 1.25rem 0; display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fit, minmax(12.5rem, 1fr)); }
.links a { display: block; height: 100%; padding: 0.8rem 0.9rem; background: var(--card); border: 1px solid var(--line); border-radius: 8px; text-decoration: none; color: var(--fg); }
.links a:hover, .links a:focus-visible { border-color: var(--accent); }
.links strong { display: block; color: var(--accent); }
.links span { display: block; font-size: 0.875rem; color: var(--muted); margin-top: 0.2rem; }
.guides { display: grid; gap: 1rem 1.5rem; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); }
.guides section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.8rem 1rem; }
.guides h2 { font-size: 1.1rem; margin: 0 0 0.4rem; }
.guides p, .guides ol { margin: 0.3rem 0; font-size: 0.925rem; }
.guides ol { padding-left: 1.2rem; }
.landing footer { margin-top: 1.25rem; font-size: 0.85rem; color: var(--muted); }

.topbar { position: sticky; top: 0; z-index: 10; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; align-items: center; min-height: 2.75rem; padding: 0.4rem 1rem; background: var(--card); border-bottom: 1px solid var(--line); font-size: 0.9rem; }
.topbar strong a { color: var(--fg); text-decoration: none; }
.topbar nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
.reference-body { background: #ffffff; color: #1d1f23; }
.reference-body .topbar { background: #ffffff; border-color: #dfe1e5; }
.reference-body .topbar strong a { color: #1d1f23; }
.reference-body .topbar a { color: #2f5bd3; }
.loading { padding: 2rem 1rem; color: #5b616b; }
`;
