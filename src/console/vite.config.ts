// The operator console's build (`npm run build:console`, part of `npm run build`): Preact + TSX
// from this folder into dist/console/, served by the service at /console (src/pages/console.ts)
// with its files under /console/assets/. Everything is bundled, nothing is loaded from elsewhere.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  publicDir: false,
  // TSX with Preact's automatic runtime (no React, no plugin needed).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/console/', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // One script and one stylesheet: no preload helper, whose polyfill would be inline-able code.
    modulePreload: false,
    // Nothing references the source, and the service would not serve it.
    sourcemap: false,
    reportCompressedSize: false,
  },
});
