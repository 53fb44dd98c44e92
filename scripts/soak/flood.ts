// A socket flood from one client address while the soak's traffic runs: more WebSocket upgrades
// than CONNECTIONS_PER_ADDRESS allows, none of which ever sends connection_init, and a few that
// send a bad token. The contract's answer: the sockets past the cap are refused with HTTP 429
// before they open, the idle ones are closed with 4408 once the init timeout passes, the bad
// tokens with 4403, and nobody else notices (the traffic's own checks prove that part).
import WebSocket from 'ws';
import type { Cluster } from './cluster.js';

/** How long a socket may wait for its end: the init timeout (10 s) and some slack. */
const SETTLE_MS = 20_000;

export interface FloodResult {
  instance: string;
  sent: number;
  /** Upgrades refused with HTTP 429 before they opened. */
  refused429: number;
  /** Opened, then closed by the server with 4408 (no connection_init in time). */
  closed4408: number;
  /** Opened, sent a bad token in connection_init, closed with 4403. */
  closed4403: number;
  /** Anything else: the check fails on any of these. */
  other: string[];
}

type Outcome = '429' | '4408' | '4403' | string;

/** One upgrade from `address`: idle, or sending a bad token. */
function oneSocket(url: string, address: string, badToken: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws', { headers: { 'x-forwarded-for': address } });
    const timer = setTimeout(() => {
      ws.terminate();
      resolve('still open after the init timeout');
    }, SETTLE_MS);
    const done = (outcome: Outcome) => {
      clearTimeout(timer);
      resolve(outcome);
    };
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      done(res.statusCode === 429 ? '429' : `upgrade answered HTTP ${res.statusCode}`);
    });
    ws.on('open', () => {
      if (badToken) ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer not-a-token' } }));
    });
    ws.on('close', (code) => done(code === 4408 || code === 4403 ? String(code) : `closed with ${code}`));
    ws.on('error', (error) => done(`socket error: ${error.message}`));
  });
}

/**
 * Floods each instance with `perInstance` upgrades from `address` (X-Forwarded-For: the soak runs
 * with TRUST_PROXY), every tenth with a bad token, and waits until each socket has ended.
 */
export async function floodSockets(cluster: Cluster, address: string, perInstance: number): Promise<FloodResult[]> {
  return Promise.all(
    cluster.instances.map(async (inst) => {
      const outcomes = await Promise.all(Array.from({ length: perInstance }, (_, i) => oneSocket(inst.url, address, i % 10 === 9)));
      const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
      return {
        instance: inst.name,
        sent: perInstance,
        refused429: count('429'),
        closed4408: count('4408'),
        closed4403: count('4403'),
        other: outcomes.filter((o) => o !== '429' && o !== '4408' && o !== '4403'),
      };
    }),
  );
}
