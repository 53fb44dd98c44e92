// One endpoint's delivery log, newest first: each delivery's event, status and attempts (time,
// response code, duration, error), with "Retry" for one more attempt now, and "Recover" for one
// more attempt of every FAILED delivery since a moment. While a delivery is PENDING the log asks
// again every second, so a test ping's outcome shows without a reload.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { WebhookDelivery } from '../client/index.js';
import { useConsole } from './context.js';
import { Field, fieldId, FormError, messageFor, When } from './field.js';
import { fromUtcInputValue, utcInputValue } from './time.js';
import { useAction } from './use-action.js';

const POLL_MS = 1_000;
/** Deliveries shown at first, and how many more "Show older" adds (the API's page is at most 100). */
const PAGE = 20;
const MAX_SHOWN = 100;

export function Deliveries({ webhookId, kick, onSettled }: { webhookId: string; kick: number; onSettled: () => Promise<void> }) {
  const { client } = useConsole();
  const [deliveries, setDeliveries] = useState<WebhookDelivery[]>();
  const [shown, setShown] = useState(PAGE);
  const [older, setOlder] = useState(false);
  const [expanded, setExpanded] = useState<string>();
  const [since, setSince] = useState(() => utcInputValue(new Date(Date.now() - 24 * 3_600_000)));
  const [recovered, setRecovered] = useState<string>();
  const [sinceId] = useState(() => fieldId('since'));
  /** The deliveries and their attempt counts at the last look (undefined before the first). */
  const lastAttempted = useRef<string | undefined>(undefined);
  // The parent's callback changes with every render of it; the log's loading must not.
  const settledRef = useRef(onSettled);
  settledRef.current = onSettled;

  const load = useAction(
    useCallback(async () => {
      const page = await client.webhooks.deliveries(webhookId, { limit: shown });
      // An attempt finished since the last look (a delivery settled, perhaps before it was ever
      // seen PENDING: the worker sends a test at once): the endpoint's health may have changed.
      const attempted = page.items.map((d) => `${d.id}:${d.attempts.length}`).join(' ');
      const settled = lastAttempted.current !== undefined && attempted !== lastAttempted.current;
      lastAttempted.current = attempted;
      setDeliveries(page.items);
      setOlder(page.nextCursor !== null);
      if (settled) await settledRef.current();
    }, [client, webhookId, shown]),
  );
  const { run: reload } = load;
  const retry = useAction(
    useCallback(
      async (deliveryId: string) => {
        await client.webhooks.retryDelivery(webhookId, deliveryId);
        await reload();
      },
      [client, webhookId, reload],
    ),
  );
  const recover = useAction(
    useCallback(async () => {
      const at = fromUtcInputValue(since);
      const count = await client.webhooks.recover(webhookId, Number.isNaN(at.getTime()) ? since : at);
      setRecovered(count === 1 ? '1 failed delivery gets another attempt.' : `${count} failed deliveries get another attempt.`);
      await reload();
    }, [client, webhookId, since, reload]),
  );

  useEffect(() => void reload(), [reload, kick]);
  const anyPending = deliveries?.some((d) => d.status === 'PENDING') ?? false;
  useEffect(() => {
    if (!anyPending) return;
    const timer = setTimeout(() => void reload(), POLL_MS);
    return () => clearTimeout(timer);
  }, [anyPending, deliveries, reload]);

  return (
    <div class="deliveries" aria-label="Delivery log">
      <div class="section-head">
        <h3>Deliveries</h3>
        <button type="button" class="secondary" disabled={load.busy} onClick={() => void reload()}>
          Refresh
        </button>
      </div>
      <FormError message={load.problem?.message ?? retry.problem?.message} />
      {deliveries === undefined ? (
        <p class="muted">Loading…</p>
      ) : deliveries.length === 0 ? (
        <p class="muted">Nothing sent to this endpoint yet. “Send test” sends a signed webhook.test.</p>
      ) : (
        <table class="table" aria-label="Deliveries">
          <thead>
            <tr>
              <th>Event</th>
              <th>Status</th>
              <th>Attempts</th>
              <th>Last attempt</th>
              <th>Next attempt</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => {
              const last = delivery.attempts[delivery.attempts.length - 1];
              return [
                <tr key={delivery.id} data-delivery-id={delivery.id}>
                  <td>
                    <code>{delivery.event}</code>
                  </td>
                  <td>
                    <span class={`badge status ${delivery.status.toLowerCase()}`}>{delivery.status}</span>
                  </td>
                  <td>
                    {delivery.attempts.length ? (
                      <button type="button" class="link" aria-expanded={expanded === delivery.id} onClick={() => setExpanded(expanded === delivery.id ? undefined : delivery.id)}>
                        {delivery.attempts.length} {delivery.attempts.length === 1 ? 'attempt' : 'attempts'}
                      </button>
                    ) : (
                      <span class="muted">none yet</span>
                    )}
                  </td>
                  <td>{last ? <AttemptOutcome attempt={last} /> : <span class="muted">—</span>}</td>
                  <td>
                    <When at={delivery.nextAttemptAt} />
                  </td>
                  <td class="row-actions">
                    <button type="button" class="secondary" disabled={retry.busy} onClick={() => void retry.run(delivery.id)}>
                      Retry
                    </button>
                  </td>
                </tr>,
                expanded === delivery.id ? (
                  <tr key={`${delivery.id}-attempts`} class="attempts">
                    <td colSpan={6}>
                      <ol>
                        {delivery.attempts.map((attempt) => (
                          <li key={attempt.at}>
                            <When at={attempt.at} /> · <AttemptOutcome attempt={attempt} /> · {attempt.durationMs} ms
                          </li>
                        ))}
                      </ol>
                    </td>
                  </tr>
                ) : null,
              ];
            })}
          </tbody>
        </table>
      )}
      {older && shown < MAX_SHOWN ? (
        <button type="button" class="link" onClick={() => setShown((n) => Math.min(MAX_SHOWN, n + PAGE))}>
          Show older deliveries
        </button>
      ) : older ? (
        <p class="muted">The {MAX_SHOWN} newest deliveries are shown; older ones are in the API (GET /api/v1/webhooks/{webhookId}/deliveries).</p>
      ) : null}
      <form
        class="inline-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void recover.run();
        }}
      >
        <Field id={sinceId} label="Recover FAILED deliveries created since" error={messageFor(recover.problem, ['since'])} hint="YYYY-MM-DD HH:MM">
          <input id={sinceId} value={since} autocomplete="off" onInput={(e) => setSince(e.currentTarget.value)} />
        </Field>
        <button type="submit" class="secondary" disabled={recover.busy}>
          Recover
        </button>
      </form>
      <FormError message={messageFor(recover.problem, undefined, ['since'])} />
      {recovered ? <p class="notice">{recovered}</p> : null}
    </div>
  );
}

function AttemptOutcome({ attempt }: { attempt: WebhookDelivery['attempts'][number] }) {
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  return (
    <span class={ok ? 'ok-text' : 'bad-text'} title={attempt.at}>
      {attempt.statusCode ?? 'no response'}
      {attempt.error ? ` (${attempt.error})` : ''}
    </span>
  );
}
