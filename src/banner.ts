// What `npm start` prints for a person once it listens, when stdout is a terminal: where to go,
// how to sign in to the demo data, and how to start over. Logs stay on their own lines.
import type { Config } from './config.js';
import { DEMO_ACCOUNTS } from './db/seed.js';
import { CONSOLE_PATH, LANDING_PATH, REFERENCE_PATH } from './http/plugins/use-pages.js';

/** The banner for a server listening at `url`, framed by blank lines. */
export function startBanner(config: Pick<Config, 'seed' | 'production' | 'databaseUrl' | 'dataDir'>, url: string): string {
  const admin = DEMO_ACCOUNTS.find((account) => account.role === 'ADMIN');
  const lines = ['', `  Learnstream is running at ${url}`, ''];
  const pages: [string, string][] = [
    [LANDING_PATH, 'start here: what the service offers'],
    [REFERENCE_PATH, 'the REST API reference'],
    ['/graphql', config.production ? 'the GraphQL endpoint' : 'GraphiQL, to try GraphQL queries'],
    [CONSOLE_PATH, 'the operator console'],
  ];
  const width = Math.max(...pages.map(([path]) => `${url}${path}`.length));
  for (const [path, what] of pages) lines.push(`    ${`${url}${path}`.padEnd(width)}  ${what}`);
  // The demo accounts exist once the seed ran (an empty database, outside production).
  if (config.seed && admin) {
    lines.push('', `  Demo sign-in (ADMIN): ${admin.email} / ${admin.password}`);
  }
  if (!config.databaseUrl) {
    const quoted = `'${config.dataDir.replaceAll("'", "'\\''")}'`;
    lines.push('', `  The embedded database lives in ${config.dataDir} (DATA_DIR).`, `  To start over with fresh demo data: stop the server, run  rm -rf ${quoted}  and start again.`);
  }
  lines.push('');
  return lines.join('\n');
}
