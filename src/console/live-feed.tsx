// The live feed: the GraphQL `events` subscription over SSE (the client library's EventStream,
// which reconnects by itself and resumes after the last event it handed out), newest first, each
// event with its name, time and subjects. It starts after the newest event at sign-in
// (feed-start.ts), so nothing committed since is missed. Nothing is polled.
import { useEffect, useState } from 'preact/hooks';
import type { LearningEvent } from '../client/index.js';
import { useConsole } from './context.js';
import { isSessionOver, problemOf } from './errors.js';
import { fillIn } from './feed-start.js';
import { utcTime } from './time.js';

/** How many events the feed keeps on screen. */
const KEEP = 100;

type Status = { kind: 'connecting' } | { kind: 'live' } | { kind: 'reconnecting'; delayMs: number } | { kind: 'ended'; message: string };

/** The subject fields of an event and how the feed labels them, in the order the feed shows them. */
const SUBJECTS = [
  ['courseId', 'course'],
  ['lessonId', 'lesson'],
  ['userId', 'user'],
  ['path', 'path'],
] as const satisfies readonly (readonly [keyof LearningEvent, string])[];

/**
 * What an event is about: every subject its payload names, e.g. the course and the learner of
 * `course.completed`, the lesson and the learner of `lesson.completed`, the page of `analytics.hit`.
 */
function subjectsOf(event: LearningEvent): { label: string; value: string }[] {
  return SUBJECTS.flatMap(([field, label]) => {
    const value = event[field];
    return value ? [{ label, value }] : [];
  });
}

/** `older` (newest first) added after what is shown, skipping the events already there. */
function withOlder(shown: LearningEvent[], older: LearningEvent[]): LearningEvent[] {
  const ids = new Set(shown.map((e) => e.id));
  return [...shown, ...older.filter((e) => !ids.has(e.id))].slice(0, KEEP);
}

export function LiveFeed() {
  const { client, feed, sessionOver } = useConsole();
  const [events, setEvents] = useState<LearningEvent[]>([]);
  const [status, setStatus] = useState<Status>({ kind: 'connecting' });
  /** Why the events committed between sign-in and connecting could not be read, if they could not. */
  const [gap, setGap] = useState<string>();

  useEffect(() => {
    const controller = new AbortController();
    const stream = client.events({
      after: 'after' in feed ? feed.after : undefined,
      signal: controller.signal,
      onConnected: ({ reconnect }) => {
        setStatus({ kind: 'live' });
        // No event to start after: the stream starts at the newest when it connects, so what
        // committed since sign-in is read from the list, older than anything it sends.
        if ('since' in feed && !reconnect) {
          fillIn(client, feed.since).then(
            (older) => {
              if (!controller.signal.aborted) setEvents((shown) => withOlder(shown, older));
            },
            (error: unknown) => {
              if (controller.signal.aborted) return;
              if (isSessionOver(error)) sessionOver(problemOf(error).message);
              else setGap(problemOf(error).message);
            },
          );
        }
      },
      onDisconnected: ({ delayMs }) => setStatus({ kind: 'reconnecting', delayMs }),
    });
    void (async () => {
      try {
        for await (const event of stream) setEvents((shown) => [event, ...shown].slice(0, KEEP));
      } catch (error) {
        if (controller.signal.aborted) return;
        if (isSessionOver(error)) sessionOver(problemOf(error).message);
        else setStatus({ kind: 'ended', message: problemOf(error).message });
      }
    })();
    return () => controller.abort();
  }, [client, feed, sessionOver]);

  return (
    <section class="card feed" aria-labelledby="feed-title">
      <div class="section-head">
        <h2 id="feed-title">Live events</h2>
        <StatusBadge status={status} />
      </div>
      {status.kind === 'ended' ? (
        <p class="error" role="alert">
          The event stream ended: {status.message}
        </p>
      ) : null}
      {gap ? (
        <p class="error" role="alert">
          The events from just before the feed connected could not be read: {gap}
        </p>
      ) : null}
      {events.length === 0 ? (
        <p class="muted">No events since you signed in. Publish a lesson or a course, or record a page view, and it appears here.</p>
      ) : (
        <ol class="events" aria-label="Live events">
          {events.map((event) => {
            const subjects = subjectsOf(event);
            return (
              <li key={event.id} data-event-id={event.id}>
                <span class={`event-name ${event.event.split('.')[0]}`}>{event.event}</span>
                <time dateTime={event.timestamp} title={event.timestamp}>
                  {utcTime(event.timestamp)}
                </time>
                {subjects.length ? (
                  <span class="subject">
                    {subjects.map((subject) => (
                      <span key={subject.label} data-subject={subject.label}>
                        <span class="muted">{subject.label}</span> <code>{subject.value}</code>
                      </span>
                    ))}
                  </span>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function StatusBadge({ status }: { status: Status }) {
  switch (status.kind) {
    case 'live':
      return <span class="badge ok">● live</span>;
    case 'connecting':
      return <span class="badge">connecting…</span>;
    case 'reconnecting':
      return <span class="badge warn">reconnecting in {Math.ceil(status.delayMs / 1000)} s</span>;
    case 'ended':
      return <span class="badge bad">stopped</span>;
  }
}
