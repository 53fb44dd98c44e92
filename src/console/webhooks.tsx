// Webhook endpoints: list with their health (enabled, lastSuccessAt, failingSince, why disabled),
// create and edit (url, events, description), enable/disable, rotate the signing secret (the new
// one shown once), send a test, and each endpoint's delivery log (deliveries.tsx).
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { CreatedWebhook, EventType, Webhook } from '../client/index.js';
import { useConsole } from './context.js';
import { Deliveries } from './deliveries.js';
import { Field, fieldId, FormError, messageFor, When } from './field.js';
import { OnceSecret } from './once-secret.js';
import { useAction } from './use-action.js';

const FORM_FIELDS = ['url', 'events', 'description'];

export function Webhooks() {
  const { client } = useConsole();
  const [webhooks, setWebhooks] = useState<Webhook[]>();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ label: string; value: string }>();
  const [open, setOpen] = useState<string>();

  const load = useAction(useCallback(async () => setWebhooks(await client.webhooks.list()), [client]));
  const { run: reload } = load;
  useEffect(() => void reload(), [reload]);
  /** One endpoint changed (or its health may have): show its current state. */
  const refreshOne = useCallback(async (id: string) => {
    const fresh = await client.webhooks.get(id);
    setWebhooks((list) => list?.map((w) => (w.id === id ? fresh : w)));
  }, [client]);

  return (
    <section class="card" aria-labelledby="webhooks-title">
      <div class="section-head">
        <h2 id="webhooks-title">Webhook endpoints</h2>
        {creating ? null : (
          <button type="button" onClick={() => setCreating(true)}>
            New endpoint
          </button>
        )}
      </div>
      {secret ? <OnceSecret label={secret.label} value={secret.value} onDone={() => setSecret(undefined)} /> : null}
      {creating ? (
        <WebhookForm
          title="New endpoint"
          submitLabel="Create endpoint"
          onCancel={() => setCreating(false)}
          onSubmit={async (input) => {
            const created: CreatedWebhook = await client.webhooks.create(input);
            setCreating(false);
            setSecret({ label: `Signing secret of ${created.url}`, value: created.secret });
            setOpen(created.id);
            await reload();
          }}
        />
      ) : null}
      <FormError message={load.problem?.message} />
      {webhooks === undefined ? (
        <p class="muted">Loading…</p>
      ) : webhooks.length === 0 && !creating ? (
        <p class="muted">No endpoints yet. Create one to receive signed events.</p>
      ) : (
        <ul class="webhooks" aria-label="Webhook endpoints">
          {webhooks.map((webhook) => (
            <WebhookItem
              key={webhook.id}
              webhook={webhook}
              open={open === webhook.id}
              onToggleLog={() => setOpen(open === webhook.id ? undefined : webhook.id)}
              onChanged={(fresh) => setWebhooks((list) => list?.map((w) => (w.id === fresh.id ? fresh : w)))}
              onSecret={(value) => setSecret({ label: `New signing secret of ${webhook.url}`, value })}
              onOpenLog={() => setOpen(webhook.id)}
              refresh={() => refreshOne(webhook.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface ItemProps {
  webhook: Webhook;
  open: boolean;
  onToggleLog: () => void;
  onOpenLog: () => void;
  onChanged: (webhook: Webhook) => void;
  onSecret: (secret: string) => void;
  refresh: () => Promise<void>;
}

function WebhookItem({ webhook, open, onToggleLog, onOpenLog, onChanged, onSecret, refresh }: ItemProps) {
  const { client } = useConsole();
  const [editing, setEditing] = useState(false);
  const [testsSent, setTestsSent] = useState(0);
  const toggle = useAction(useCallback(async () => onChanged(await client.webhooks.update(webhook.id, { enabled: !webhook.enabled })), [client, webhook, onChanged]));
  const rotate = useAction(useCallback(async () => onSecret(await client.webhooks.rotateSecret(webhook.id)), [client, webhook.id, onSecret]));
  const test = useAction(
    useCallback(async () => {
      await client.webhooks.test(webhook.id);
      setTestsSent((n) => n + 1);
      onOpenLog();
    }, [client, webhook.id, onOpenLog]),
  );
  const problem = toggle.problem ?? rotate.problem ?? test.problem;

  return (
    <li class="webhook" aria-label={webhook.url}>
      <div class="webhook-head">
        <div>
          <code class="url">{webhook.url}</code>
          {webhook.description ? <div class="muted">{webhook.description}</div> : null}
          <div class="chips">
            {webhook.events.map((name) => (
              <span class="chip" key={name}>
                {name}
              </span>
            ))}
          </div>
        </div>
        <Health webhook={webhook} />
      </div>
      {editing ? (
        <WebhookForm
          title="Edit endpoint"
          submitLabel="Save changes"
          initial={webhook}
          onCancel={() => setEditing(false)}
          onSubmit={async (input) => {
            onChanged(await client.webhooks.update(webhook.id, input));
            setEditing(false);
          }}
        />
      ) : (
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" class="secondary" disabled={toggle.busy} onClick={() => void toggle.run()}>
            {webhook.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" class="secondary" disabled={rotate.busy} onClick={() => void rotate.run()}>
            Rotate secret
          </button>
          <button type="button" class="secondary" disabled={test.busy} onClick={() => void test.run()}>
            Send test
          </button>
          <button type="button" class="secondary" aria-expanded={open} onClick={onToggleLog}>
            {open ? 'Hide deliveries' : 'Deliveries'}
          </button>
        </div>
      )}
      <FormError message={problem?.message} />
      {open ? <Deliveries webhookId={webhook.id} kick={testsSent} onSettled={refresh} /> : null}
    </li>
  );
}

/** The endpoint's health as the server reports it. */
function Health({ webhook }: { webhook: Webhook }) {
  return (
    <dl class="health">
      <dt>Status</dt>
      <dd>
        {webhook.enabled ? (
          webhook.failingSince ? <span class="badge warn">failing</span> : <span class="badge ok">enabled</span>
        ) : (
          <span class="badge bad" title={webhook.disabledReason ?? undefined}>
            disabled
          </span>
        )}
      </dd>
      {!webhook.enabled && webhook.disabledReason ? (
        <>
          <dt>Why</dt>
          <dd>{webhook.disabledReason}</dd>
        </>
      ) : null}
      <dt>Last success</dt>
      <dd>
        <When at={webhook.lastSuccessAt} empty="none yet" />
      </dd>
      <dt>Failing since</dt>
      <dd>
        <When at={webhook.failingSince} empty="—" />
      </dd>
    </dl>
  );
}

interface FormInput {
  url: string;
  events: EventType[];
  description: string | null;
}

function WebhookForm(props: { title: string; submitLabel: string; initial?: Webhook; onSubmit: (input: FormInput) => Promise<void>; onCancel: () => void }) {
  const { eventTypes } = useConsole();
  const [ids] = useState(() => ({ url: fieldId('url'), description: fieldId('description'), events: fieldId('events') }));
  const [url, setUrl] = useState(props.initial?.url ?? '');
  const [description, setDescription] = useState(props.initial?.description ?? '');
  const [events, setEvents] = useState<EventType[]>(() => (props.initial?.events as EventType[] | undefined) ?? ['lesson.published']);
  const { onSubmit } = props;
  const save = useAction(
    useCallback(() => onSubmit({ url: url.trim(), events, description: description.trim() || null }), [onSubmit, url, events, description]),
  );
  const urlError = messageFor(save.problem, ['url']);
  const eventsError = messageFor(save.problem, ['events']);
  const descriptionError = messageFor(save.problem, ['description']);

  return (
    <form
      class="webhook-form"
      aria-label={props.title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <h3>{props.title}</h3>
      <Field id={ids.url} label="URL" error={urlError} hint="Where the signed POST requests go: an absolute http(s) URL.">
        <input
          id={ids.url}
          name="url"
          type="url"
          value={url}
          placeholder="https://example.com/webhooks/learnstream"
          aria-invalid={urlError ? true : undefined}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
      </Field>
      <fieldset class={eventsError ? 'field invalid' : 'field'} aria-describedby={eventsError ? `${ids.events}-error` : undefined}>
        <legend>Events</legend>
        <div class="checks">
          {eventTypes.map((name) => (
            <label key={name} class="check">
              <input
                type="checkbox"
                checked={events.includes(name)}
                onChange={(e) => setEvents((chosen) => (e.currentTarget.checked ? [...chosen, name] : chosen.filter((n) => n !== name)))}
              />
              {name}
            </label>
          ))}
        </div>
        {eventsError ? (
          <p class="error" id={`${ids.events}-error`} role="alert">
            {eventsError}
          </p>
        ) : null}
      </fieldset>
      <Field id={ids.description} label="Description (optional)" error={descriptionError}>
        <input id={ids.description} name="description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </Field>
      <FormError message={messageFor(save.problem, undefined, FORM_FIELDS)} />
      <div class="actions">
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : props.submitLabel}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
