// The address the service listens on (HOST, PORT): checked before anything else starts, and the
// listen failures it causes said in the operator's words.
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { ConfigError, type Config } from '../config.js';

/**
 * The listen failures HOST and PORT cause, in the operator's words, as configuration problems
 * (`config: PORT: …`); undefined for any other.
 */
function addressProblem(error: unknown, { host, port }: Pick<Config, 'host' | 'port'>): ConfigError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = `${urlHost(host)}:${port}`;
  if (code === 'EADDRINUSE') return new ConfigError([`PORT: ${address} is already in use by another process`]);
  if (code === 'EACCES') return new ConfigError([`PORT: ${address} needs privileges this process does not have (ports below 1024 usually do)`]);
  if (code === 'EADDRNOTAVAIL') return new ConfigError([`HOST: ${host} is not an address of this machine`]);
  return undefined;
}

/**
 * Fails at once when HOST and PORT cannot be listened on, before the database is touched: a port
 * in use must not wait for a first start's migration and seed to be reported, nor leave a half-made
 * DATA_DIR behind. The real listen, later, still reports the rare port taken in between.
 */
export async function checkAddress(config: Config): Promise<void> {
  if (config.port === 0) return;
  const probe = createNetServer();
  await listen(probe, config);
  await new Promise((resolve) => probe.close(resolve));
}

/** Listens on HOST and PORT; a failure they cause is the ConfigError addressProblem names. */
export function listen(server: NetServer, config: Config): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(addressProblem(error, config) ?? error));
    server.listen(config.port, config.host, resolve);
  });
}

/** A host as a URL writes it: an IPv6 address in brackets. */
export const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);
