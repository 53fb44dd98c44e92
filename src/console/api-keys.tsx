// API keys of the signed-in ADMIN: list, create (the key is shown once, right after), revoke.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApiKey, CreatedApiKey } from '../client/index.js';
import { useConsole } from './context.js';
import { Field, fieldId, FormError, messageFor, When } from './field.js';
import { OnceSecret } from './once-secret.js';
import { useAction } from './use-action.js';

const nameId = fieldId('key-name');

export function ApiKeys() {
  const { client } = useConsole();
  const [keys, setKeys] = useState<ApiKey[]>();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey>();
  const [confirming, setConfirming] = useState<string>();

  const load = useAction(useCallback(async () => setKeys(await client.apiKeys.list()), [client]));
  const create = useAction(
    useCallback(async () => {
      const key = await client.apiKeys.create(name);
      setCreated(key);
      setName('');
      setKeys(await client.apiKeys.list());
    }, [client, name]),
  );
  const revoke = useAction(
    useCallback(
      async (id: string) => {
        await client.apiKeys.revoke(id);
        setConfirming(undefined);
        setKeys(await client.apiKeys.list());
      },
      [client],
    ),
  );
  const { run: loadKeys } = load;
  useEffect(() => void loadKeys(), [loadKeys]);

  return (
    <section class="card" aria-labelledby="keys-title">
      <div class="section-head">
        <h2 id="keys-title">API keys</h2>
      </div>
      <p class="muted">Keys act as you, sent as <code>Authorization: Bearer lp_…</code> or <code>X-API-Key</code>.</p>
      {created ? (
        <OnceSecret label={`New API key “${created.name}”`} value={created.key} onDone={() => setCreated(undefined)} />
      ) : null}
      <form
        class="inline-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void create.run();
        }}
      >
        <Field id={nameId} label="Name of a new key" error={messageFor(create.problem, ['name'])}>
          <input id={nameId} value={name} placeholder="e.g. reporting script" onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={create.busy}>
          Create key
        </button>
      </form>
      <FormError message={messageFor(create.problem, undefined, ['name'])} />
      <FormError message={load.problem?.message ?? revoke.problem?.message} />
      {keys === undefined ? (
        <p class="muted">Loading…</p>
      ) : keys.length === 0 ? (
        <p class="muted">No API keys.</p>
      ) : (
        <table class="table stack" aria-label="API keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td data-label="Key">
                  <code>lp_{key.prefix}…</code>
                </td>
                <td data-label="Created">
                  <When at={key.createdAt} />
                </td>
                <td data-label="Last used">
                  <When at={key.lastUsedAt} empty="never" />
                </td>
                <td class="row-actions">
                  {confirming === key.id ? (
                    <>
                      <button type="button" class="danger" disabled={revoke.busy} onClick={() => void revoke.run(key.id)}>
                        Revoke “{key.name}”
                      </button>
                      <button type="button" class="secondary" onClick={() => setConfirming(undefined)}>
                        Keep
                      </button>
                    </>
                  ) : (
                    <button type="button" class="secondary" onClick={() => setConfirming(key.id)}>
                      Revoke…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
