// A cached GET query read that began before a change commits never stores its old result after the
// change answered: the generation checked before storing is the storing read's own. Three reads are
// held (by a plugin) between reading the database and storing: Y reads the old name, X stores it,
// the rename commits and invalidates, Z reads the new name, then Y goes on and Z after it.
import type { ExecutionArgs } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { waitFor } from './support/wait.js';

const USER = 'query ($id: ID!) { user(id: $id) { id name joined } }';

/** Reads whose request carries `x-hold: <label>`: held once executed, until released. */
const held = new Map<string, { read: boolean; release: () => void }>();
const releases = new Map<string, Promise<void>>();
function hold(label: string): void {
  let release!: () => void;
  releases.set(label, new Promise<void>((resolve) => (release = resolve)));
  held.set(label, { read: false, release });
}
const holding: Plugin = {
  onExecute({ args, executeFn, setExecuteFn }) {
    const label = (args.contextValue as { request?: Request }).request?.headers.get('x-hold');
    if (!label || !held.has(label)) return;
    setExecuteFn(async (executionArgs: ExecutionArgs) => {
      const result = await executeFn(executionArgs);
      held.get(label)!.read = true;
      await releases.get(label);
      return result;
    });
  },
};

const it = serverTest({ env: NO_RATE_LIMITS, plugins: [holding] });

it('a read that began before a rename never stores the old name, even when another read of the query missed after the rename', async ({ api }) => {
  const { token } = await api.login('grace@example.com', 'hopper-1906');
  const me = (await api.get('/api/v1/user/me', { token })).body as { id: string; name: string };
  const url = `/graphql?${new URLSearchParams({ query: USER, variables: JSON.stringify({ id: me.id }) })}`;
  const events = (await api.get('/api/v1/events?types=user.updated', { token })).body as { items: { id: string }[] };
  const eventsBefore = events.items.length;

  // Y misses and reads the old name, then waits.
  hold('y');
  const y = api.get(url, { headers: { 'x-hold': 'y' } });
  await waitFor('Y to read', () => held.get('y')!.read);
  // X reads the old name and stores it.
  const x = await api.get(url);
  expect(x.body.data.user.name).toBe(me.name);
  expect(x.headers.get('etag')).toBeTruthy();

  // The rename commits; its event is stored and handed to this instance's bus (which invalidates again).
  const renamed = `Grace Renamed ${Date.now()}`;
  expect((await api.patch('/api/v1/user/me', { name: renamed }, { token })).status).toBe(200);
  await waitFor('the rename event', async () => {
    const list = (await api.get('/api/v1/events?types=user.updated', { token })).body as { items: unknown[] };
    return list.items.length > eventsBefore;
  });
  // Z misses after the rename and reads the new name, then waits.
  hold('z');
  const z = api.get(url, { headers: { 'x-hold': 'z' } });
  await waitFor('Z to read', () => held.get('z')!.read);

  // Y goes on (its answer is the old name: it began before the rename), then Z.
  held.get('y')!.release();
  expect((await y).body.data.user.name).toBe(me.name);
  held.get('z')!.release();
  expect((await z).body.data.user.name).toBe(renamed);

  // Every read from now on began after the rename answered: never the old name.
  for (let i = 0; i < 3; i++) {
    const read = await api.get(url);
    expect(read.status).toBe(200);
    expect(read.body.data.user.name, `read ${i}`).toBe(renamed);
  }
});
