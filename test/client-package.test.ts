// The client library as the npm package @learnstream/client, the way a user gets it: `npm run
// pack:client -- <folder>` builds the tarball into an empty folder, `npm install ./<tarball>` installs
// it from there (its dependencies come from the registry), and then, against a real running server:
// - the README's create-key.mjs makes an API key, and its ES module and CommonJS examples run under
//   plain `node` with that key and call me();
// - a consumer type-checks the declarations with strict, exactOptionalPropertyTypes,
//   noPropertyAccessFromIndexSignature and noUncheckedIndexedAccess and without skipLibCheck (with
//   the DOM library, and with Node's types), and deliberate misuses are reported;
// - the install holds nothing of the server, runs no install script and stays under 10 MB;
// - a browser bundle of the ES module build needs no Node built-in, and in Chromium (another
//   origin than the API's) it calls me(), receives an event from the live stream and verifies a
//   webhook signature.
// One pack and one install per run, shared by the tests.
import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
// esbuild comes with tsup (a devDependency): the same bundler the browser check needs.
import { build as esbuild } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ClientModule from '../src/client/index.js';
import { DEMO_ACCOUNTS } from '../src/db/seed.js';
import { serverForSuite } from './support/server.js';
import { launchChromium } from './support/browser.js';

const root = join(import.meta.dirname, '..');
const PACKAGE = '@learnstream/client';
const MAX_INSTALL_BYTES = 10 * 1024 * 1024;
/** Packages of the server that must never come with the client. */
const SERVER_PACKAGES = ['prisma', '@prisma/', '@electric-sql/pglite', '@pothos/', 'graphql-yoga', '@graphql-yoga/', 'pg', 'pino', 'zod', 'ioredis'];

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Our environment without npm's variables: under `npm test` they include npm_config_local_prefix
 * (this repository), which would make a nested `npm install` install into the repository.
 */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, ...extra };
}

/** Runs a program to its end and resolves with its exit code and output (never rejects on a non-zero exit). */
function runProgram(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(Object.assign(error, { stdout, stderr }));
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}

/** The fenced code block of the README whose first line starts with `// <name>`. */
function readmeBlock(readme: string, name: string): string {
  const block = [...readme.matchAll(/```(?:js|ts)\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.startsWith(`// ${name}`));
  if (!block) throw new Error(`README: no code block starting with // ${name}`);
  return block;
}

/** The output a README block shows in its last comment line, as a pattern (`…` stands for anything). */
function shownOutput(block: string): RegExp {
  const shown = block.trimEnd().split('\n').filter((line) => /^\s*\/\/ /.test(line)).slice(1).at(-1);
  if (!shown) throw new Error('README block shows no output');
  const escape = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const parts = shown.replace(/^\s*\/\/ /, '').split('…').map(escape);
  return new RegExp(`^${parts.join('.*')}$`);
}

/** Every file under `dir` with its size (symbolic links not followed). */
async function filesUnder(dir: string): Promise<{ path: string; size: number }[]> {
  const out: { path: string; size: number }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push({ path, size: (await stat(path)).size });
  }
  return out;
}

/** The packages installed in node_modules (scoped ones as `@scope/name`), nested ones included. */
async function installedPackages(nodeModules: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) {
      for (const scoped of await readdir(join(nodeModules, entry.name))) names.push(`${entry.name}/${scoped}`);
    } else {
      names.push(entry.name);
    }
  }
  const nested = await Promise.all(
    names.map(async (name) => {
      const inner = join(nodeModules, name, 'node_modules');
      return (await stat(inner).catch(() => undefined)) ? installedPackages(inner) : [];
    }),
  );
  return [...names, ...nested.flat()].sort();
}

/** `file(line,col): error TSxxxx: message` lines of tsc's output, as `{file, line, code}`. */
function tscErrors(output: string): { file: string; line: number; code: string; text: string }[] {
  return [...output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/gm)].map((m) => ({ file: m[1]!, line: Number(m[2]), code: m[3]!, text: m[4]! }));
}

const STRICTEST = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
};

/** A consumer using the package in ways the four flags are strict about; must compile without error. */
const CONSUMER_ESM = `import {
  LearningApiError, LearningClient, LessonDocument, ValidationError, verifyWebhook,
  type CurrentUser, type GraphQLErrorItem, type Lesson, type RestResponse, type WebhookEvent,
} from '${PACKAGE}';

// What a consumer has in hand: values that may be undefined (an unset variable, a blank form field).
declare const apiKey: string | undefined;
declare const summary: string | undefined;
declare const lastEventId: string | undefined;

const client = new LearningClient({ baseUrl: 'http://127.0.0.1:4000', apiKey, maxRetries: undefined });

export async function main(signal: AbortSignal): Promise<string> {
  const me: CurrentUser = await client.me({ signal });
  const role: 'ADMIN' | 'MEMBER' = me.role;
  const page = await client.lessons.list({ limit: 10, cursor: lastEventId });
  const first: Lesson | undefined = page.items[0];
  await client.lessons.update(first?.id ?? 'les_x', { summary, title: undefined });
  const { lesson } = await client.query(LessonDocument, { id: first?.id ?? 'les_x' });
  for await (const event of client.events({ types: ['lesson.published'], after: lastEventId, signal })) {
    if (event.lessonId) break;
  }
  const catalogue = await client.eventTypes();
  const schemaType: unknown = catalogue[0]?.schema['type'];
  try {
    await client.webhooks.create({ url: 'https://example.com/hook', events: ['lesson.published'], description: summary });
  } catch (error) {
    if (error instanceof ValidationError) return error.field ?? String(error.details?.['field']);
    if (error instanceof LearningApiError) return \`\${error.status} \${error.code} \${error.requestId ?? ''}\`;
    throw error;
  }
  const item: GraphQLErrorItem = { message: 'x', extensions: { code: 'NOT_FOUND' } };
  const event: WebhookEvent = verifyWebhook('{}', new Headers(), 'whsec_x');
  if (event.event === 'lesson.published') return event.lessonId;
  const total: RestResponse<'getPageViews', 200>['total'] = await client.analytics.getPageViews({ from: new Date(), path: summary });
  return \`\${role} \${lesson?.title ?? ''} \${String(schemaType)} \${item.message} \${total}\`;
}
`;

/** The same package through \`require\` (the CommonJS declarations). */
const CONSUMER_CJS = `import client = require('${PACKAGE}');

declare const token: string | undefined;

export async function name(): Promise<string> {
  const api = new client.LearningClient({ baseUrl: 'http://127.0.0.1:4000', token });
  const me: client.CurrentUser = await api.me();
  return me.name;
}
`;

/** Misuses, each marked with the error tsc must report on its line. */
const WRONG = `import { LearningClient, type GraphQLErrorItem } from '${PACKAGE}';

const client = new LearningClient({ baseUrl: 'http://127.0.0.1:4000' });

export async function wrong(): Promise<unknown> {
  const title: string = (await client.lessons.list()).items[0].title; // TS2532 noUncheckedIndexedAccess
  const schemaType = (await client.eventTypes())[0]?.schema.type; // TS4111 noPropertyAccessFromIndexSignature
  const item: GraphQLErrorItem = { message: 'x', path: undefined }; // TS2375 exactOptionalPropertyTypes
  await client.lessons.create({ title: 'no body' }); // TS2345 a required field is missing
  const nick = (await client.me()).nickname; // TS2339 no such field
  return [title, schemaType, item, nick];
}
`;

describe('@learnstream/client packed, installed in an empty folder and used against the server', () => {
  const suite = serverForSuite();
  let consumer: string;
  let tarball: string;
  let install: Outcome;
  let readme: string;
  let ada: { id: string; name: string; email: string; role: string };
  /** The key the README's create-key.mjs printed, for the other examples. */
  let apiKey: string;

  beforeAll(async () => {
    consumer = await mkdtemp(join(tmpdir(), 'learnstream-client-consumer-'));
    // `npm run pack:client -- <the app's folder>` as a user runs it; the tarball's path is its last line.
    const pack = await runProgram('npm', ['run', '--silent', 'pack:client', '--', consumer], root, childEnv(), 300_000);
    expect(pack.code, pack.stderr).toBe(0);
    tarball = pack.stdout.trim().split('\n').at(-1)!;
    expect(tarball).toMatch(/learnstream-client-\d+\.\d+\.\d+\.tgz$/);
    expect(dirname(tarball)).toBe(consumer);

    // Installed from the app's own folder, so the dependency points at a file the app keeps.
    await writeFile(join(consumer, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
    install = await runProgram('npm', ['install', '--no-audit', '--no-fund', `./${basename(tarball)}`], consumer, childEnv(), 300_000);
    expect(install.code, install.stderr).toBe(0);
    const app = JSON.parse(await readFile(join(consumer, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(app.dependencies).toEqual({ [PACKAGE]: `file:${basename(tarball)}` });
    readme = await readFile(join(consumer, 'node_modules', PACKAGE, 'README.md'), 'utf8');

    const account = DEMO_ACCOUNTS[0];
    const { token } = await suite.api.login(account.email, account.password);
    ada = (await suite.api.get('/api/v1/user/me', { token })).body as typeof ada;
    expect(ada.email).toBe(account.email);

    // The README's way to a key, under plain node: it signs in once and prints the new key.
    await writeFile(join(consumer, 'create-key.mjs'), readmeBlock(readme, 'create-key.mjs'));
    const created = await runProgram(process.execPath, ['create-key.mjs'], consumer, childEnv({ LEARNSTREAM_URL: suite.server.url }), 60_000);
    expect(created.code, created.stderr).toBe(0);
    apiKey = created.stdout.trim();
    expect(apiKey).toMatch(/^lp_[\w-]+$/);
  }, 600_000);

  afterAll(async () => {
    if (consumer) await rm(consumer, { recursive: true, force: true });
  });

  it('is compiled JavaScript (ESM and CommonJS) with declarations, and nothing else', async () => {
    const files = (await filesUnder(join(consumer, 'node_modules', PACKAGE))).map((f) => relative(join(consumer, 'node_modules', PACKAGE), f.path)).sort();
    expect(files).toEqual(['LICENSE', 'README.md', 'dist/index.cjs', 'dist/index.d.cts', 'dist/index.d.ts', 'dist/index.js', 'package.json']);
    const manifest = JSON.parse(await readFile(join(consumer, 'node_modules', PACKAGE, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: PACKAGE, type: 'module', sideEffects: false, license: 'MIT' });
    expect(manifest['scripts']).toBeUndefined();
  });

  it('installs nothing of the server, runs no install script, and stays under 10 MB', async () => {
    const nodeModules = join(consumer, 'node_modules');
    const packages = await installedPackages(nodeModules);
    expect(packages).toContain(PACKAGE);
    expect(packages.filter((name) => SERVER_PACKAGES.some((p) => (p.endsWith('/') ? name.startsWith(p) : name === p)))).toEqual([]);
    // npm records in the lock file every package that has a (pre|post)install script; none may.
    const lock = JSON.parse(await readFile(join(consumer, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    expect(Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/'))).toHaveLength(packages.length);
    expect(Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([key]) => key)).toEqual([]);
    expect(`${install.stdout}\n${install.stderr}`).not.toMatch(/prisma/i);
    const bytes = (await filesUnder(consumer)).reduce((sum, f) => sum + f.size, 0);
    expect(bytes, `${(bytes / 1024 / 1024).toFixed(1)} MB installed (${packages.join(', ')})`).toBeLessThan(MAX_INSTALL_BYTES);
  });

  it("depends on exactly what its code and declarations import, plus graphql-sse's peer graphql", async () => {
    const dist = join(consumer, 'node_modules', PACKAGE, 'dist');
    const bare = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!).filter((s) => !s.startsWith('.'));
    const esm = bare(await readFile(join(dist, 'index.js'), 'utf8'), /^\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']/gm);
    const cjs = bare(await readFile(join(dist, 'index.cjs'), 'utf8'), /\brequire\(["']([^"']+)["']\)/g);
    const dts = bare(await readFile(join(dist, 'index.d.ts'), 'utf8'), /^\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']/gm);
    expect([...new Set(esm)].sort()).toEqual(['graphql-sse', 'standardwebhooks']);
    expect([...new Set(cjs)].sort()).toEqual(['graphql-sse', 'standardwebhooks']);
    expect([...new Set(dts)].sort()).toEqual(['@graphql-typed-document-node/core']);
    // graphql-sse's entry loads its server half too, which imports graphql: a peer it needs at run time.
    const sse = JSON.parse(await readFile(join(consumer, 'node_modules/graphql-sse/package.json'), 'utf8')) as { peerDependencies: Record<string, string> };
    expect(Object.keys(sse.peerDependencies)).toEqual(['graphql']);
    const manifest = JSON.parse(await readFile(join(dist, '../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).sort()).toEqual([...new Set([...esm, ...cjs, ...dts, 'graphql'])].sort());
  });

  it("the README's ES module example runs under plain node: with Ada's API key, me() answers her", async () => {
    const block = readmeBlock(readme, 'me.mjs');
    await writeFile(join(consumer, 'me.mjs'), block);
    const env = childEnv({ LEARNSTREAM_URL: suite.server.url, LEARNSTREAM_API_KEY: apiKey });
    const { code, stdout, stderr } = await runProgram(process.execPath, ['me.mjs'], consumer, env, 60_000);
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe(`Ada Lovelace <ada@example.com> ADMIN ${ada.id}`);
    expect(stdout.trim()).toMatch(shownOutput(block));
    // `import` took the ES module build.
    const resolved = await runProgram(process.execPath, ['--input-type=module', '-e', `console.log(import.meta.resolve('${PACKAGE}'))`], consumer, env, 60_000);
    expect(resolved.stdout.trim()).toMatch(/\/node_modules\/@learnstream\/client\/dist\/index\.js$/);
  });

  it("the README's CommonJS example runs under plain node: require, Ada's API key, me()", async () => {
    const block = readmeBlock(readme, 'me.cjs');
    await writeFile(join(consumer, 'me.cjs'), block);
    const env = childEnv({ LEARNSTREAM_URL: suite.server.url, LEARNSTREAM_API_KEY: apiKey });
    const { code, stdout, stderr } = await runProgram(process.execPath, ['me.cjs'], consumer, env, 60_000);
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe(`Ada Lovelace <ada@example.com> ADMIN ${ada.id}`);
    expect(stdout.trim()).toMatch(shownOutput(block));
    const resolved = await runProgram(process.execPath, ['-e', `console.log(require.resolve('${PACKAGE}'))`], consumer, env, 60_000);
    expect(resolved.stdout.trim()).toMatch(/\/node_modules\/@learnstream\/client\/dist\/index\.cjs$/);
  });

  it('type-checks in a consumer with the four strictest flags and no skipLibCheck (DOM library), and reports misuse', async () => {
    await writeFile(join(consumer, 'consumer.mts'), CONSUMER_ESM);
    await writeFile(join(consumer, 'consumer.cts'), CONSUMER_CJS);
    await writeFile(join(consumer, 'wrong.mts'), WRONG);
    const tsconfig = { compilerOptions: { ...STRICTEST, lib: ['ES2022', 'DOM'], types: [] }, files: ['consumer.mts', 'consumer.cts', 'wrong.mts'] };
    await writeFile(join(consumer, 'tsconfig.dom.json'), JSON.stringify(tsconfig, null, 2));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const { stdout } = await runProgram(process.execPath, [tsc, '-p', 'tsconfig.dom.json', '--pretty', 'false'], consumer, childEnv(), 180_000);
    const errors = tscErrors(stdout);
    // Nothing in the package's declarations or in the correct consumers.
    expect(errors.filter((e) => e.file !== 'wrong.mts'), stdout).toEqual([]);
    // Each misuse reported on its line with its code, and nothing else.
    const expected = WRONG.split('\n').flatMap((text, i) => {
      const code = /\/\/ (TS\d+)/.exec(text)?.[1];
      return code ? [{ line: i + 1, code }] : [];
    });
    expect(expected).toHaveLength(5);
    expect(errors.map(({ line, code }) => ({ line, code })), stdout).toEqual(expected);
  }, 240_000);

  it("type-checks the README's TypeScript example in a Node consumer (Node's types, no DOM) with the same flags", async () => {
    await writeFile(join(consumer, 'example.ts'), readmeBlock(readme, 'example.ts'));
    const tsconfig = {
      compilerOptions: { ...STRICTEST, lib: ['ES2022'], types: ['node'], typeRoots: [join(root, 'node_modules/@types')] },
      files: ['example.ts'],
    };
    await writeFile(join(consumer, 'tsconfig.node.json'), JSON.stringify(tsconfig, null, 2));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const { code, stdout } = await runProgram(process.execPath, [tsc, '-p', 'tsconfig.node.json', '--pretty', 'false'], consumer, childEnv(), 180_000);
    expect(tscErrors(stdout), stdout).toEqual([]);
    expect(code, stdout).toBe(0);
  }, 240_000);

  /** The package bundled for a browser, as Vite or esbuild would for the console: the whole package on `window.learnstream`. */
  const browserBundle = async () => {
    await writeFile(join(consumer, 'browser.js'), `import * as learnstream from '${PACKAGE}';\nglobalThis.learnstream = learnstream;\n`);
    // platform 'browser' refuses to resolve node: modules and Node's built-ins: the build fails if any is imported.
    return esbuild({
      absWorkingDir: consumer,
      entryPoints: ['browser.js'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
  };

  it('bundles for a browser from the ES module build with no Node built-in anywhere in its imports', async () => {
    const result = await browserBundle();
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('node_modules/@learnstream/client/dist/index.js');
    expect(inputs.filter((p) => p.startsWith('node:') || (!p.startsWith('node_modules/') && p !== 'browser.js'))).toEqual([]);
    expect(Object.values(result.metafile.outputs).flatMap((o) => o.imports)).toEqual([]);
  });

  it('works in Chromium from another origin: me(), an event from the live stream, a webhook verified', async () => {
    const bundle = (await browserBundle()).outputFiles[0]!.text;
    const account = DEMO_ACCOUNTS[0];
    const { token } = await suite.api.login(account.email, account.password);
    // A webhook signed as the server signs one (Standard Webhooks), for the page to verify.
    const key = randomBytes(24);
    const secret = `whsec_${key.toString('base64')}`;
    const webhookId = 'evt_browser_check';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const payload = JSON.stringify({ event: 'lesson.published', timestamp: new Date().toISOString(), lessonId: 'les_browser' });
    const signature = `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.${payload}`).digest('base64')}`;
    const path = `/browser-${randomBytes(4).toString('hex')}`;

    // The page and its script come from a server of their own: another origin than the API's.
    const pages = createServer((request, response) => {
      const script = request.url === '/client.js';
      response.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html' });
      response.end(script ? bundle : '<!doctype html><title>client</title><script type="module" src="/client.js"></script>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      const origins = new Set<string>();
      page.on('request', (request) => origins.add(new URL(request.url()).origin));
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      await page.goto(`${pageOrigin}/`);
      await page.waitForFunction(() => 'learnstream' in globalThis);

      const result = await page.evaluate(
        async ({ baseUrl, token, path, webhook }) => {
          const ls = (globalThis as unknown as { learnstream: typeof ClientModule }).learnstream;
          const client = new ls.LearningClient({ baseUrl, token });
          const me = await client.me();
          // The live stream (graphql-sse over fetch): record a page view once connected, and receive its event.
          const stream = client.events({
            types: ['analytics.hit'],
            onConnected: () => void client.analytics.recordPageView(path),
            // A deadline, so that a missing event fails the assertion below instead of hanging.
            signal: AbortSignal.timeout(30_000),
          });
          let eventPath: string | null = null;
          for await (const event of stream) {
            if (event.path === path) {
              eventPath = event.path;
              break;
            }
          }
          const headers = new Headers({ 'webhook-id': webhook.id, 'webhook-timestamp': webhook.timestamp, 'webhook-signature': webhook.signature });
          const verified = ls.verifyWebhook(webhook.payload, headers, webhook.secret);
          let forged = '';
          try {
            ls.verifyWebhook(webhook.payload.replace('les_browser', 'les_forged'), headers, webhook.secret);
          } catch (error) {
            forged = error instanceof ls.WebhookVerificationError ? error.name : String(error);
          }
          return { me: { id: me.id, email: me.email }, eventPath, verified, forged };
        },
        { baseUrl: suite.server.url, token, path, webhook: { id: webhookId, timestamp, signature, payload, secret } },
      );

      expect(result.me).toEqual({ id: ada.id, email: ada.email });
      expect(result.eventPath).toBe(path);
      expect(result.verified).toMatchObject({ id: webhookId, event: 'lesson.published', lessonId: 'les_browser' });
      expect(result.forged).toBe('WebhookVerificationError');
      expect(problems).toEqual([]);
      // The page and its script from the page's origin; every call to the API's.
      expect([...origins].sort()).toEqual([pageOrigin, new URL(suite.server.url).origin].sort());
    } finally {
      await browser.close();
      pages.closeAllConnections();
      await new Promise<void>((resolve) => pages.close(() => resolve()));
    }
  }, 120_000);
});
