// The README and docs/ hold together: every relative link names a file that exists, and every
// #anchor (on the same page or another .md page) names a heading there, with GitHub's slugs.
// The README stays a front door: under 400 lines. No server: this reads files only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The page without fenced code blocks, where a `#` line is no heading. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1\s*$/gm, '');
}

/** The page without code, fenced or inline, where brackets are not links. */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*`]/g, '');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** Relative link targets of a page: `[text](target)` and `![alt](target)`, not URLs with a scheme. */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('README.md and docs/*.md', () => {
  it('the README is under 400 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThan(400);
  });

  it('the docs pages exist that the README links into', () => {
    for (const page of ['architecture.md', 'operations.md', 'testing.md', 'benchmarks.md', 'decisions.md']) {
      expect(existsSync(join(ROOT, 'docs', page)), page).toBe(true);
    }
    expect(existsSync(join(ROOT, 'docs', 'benchmarks-log.md'))).toBe(false);
  });

  it.each(PAGES)('every relative link and anchor in %s resolves', (page) => {
    const markdown = readFileSync(join(ROOT, page), 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(markdown)) {
      const [path = '', anchor] = link.split('#');
      const target = path ? resolve(dirname(join(ROOT, page)), decodeURI(path)) : join(ROOT, page);
      if (!existsSync(target)) {
        broken.push(`${link}: no file ${relative(ROOT, target)}`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor))) {
        broken.push(`${link}: no heading #${anchor} in ${relative(ROOT, target)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds links and anchors as GitHub does', () => {
    expect(linksOf('[a](docs/x.md#y) `[b](no.md)` [c](https://example.com) ![d](img.png)')).toEqual(['docs/x.md#y', 'img.png']);
    expect([...anchorsOf('# Retries and conditional requests\n## Webhooks (ADMIN)\n## `GET /api/users/{id}`\n## Tests\n## Tests')]).toEqual([
      'retries-and-conditional-requests',
      'webhooks-admin',
      'get-apiusersid',
      'tests',
      'tests-1',
    ]);
  });
});
