import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server.js';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  for (const problem of error.problems) console.error(`config: ${problem}`);
  process.exit(1);
}
const server = await startServer(config);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.log.info({ signal }, 'shutting down');
    void server.stop().then(() => process.exit(0));
  });
}
