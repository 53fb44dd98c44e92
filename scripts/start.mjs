// `npm start`: runs the compiled service (dist/), building it first when it is missing or older
// than its sources, so a fresh clone still needs only `npm install && npm start`. The same for the
// operator console (dist/console/, built by Vite from src/console/ and the client library it
// bundles, src/client/); a console that fails to build is reported and the service starts anyway
// (GET /console then says it is not built).
/* global URL -- a Node global (the lint config knows only TypeScript's) */
import { fileURLToPath } from 'node:url';
import './build-if-stale.mjs';

await import(fileURLToPath(new URL('../dist/main.js', import.meta.url)));
