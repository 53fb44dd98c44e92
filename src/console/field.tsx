// Small pieces every form uses: a labelled field with the server's message under it, and the
// message of a form as a whole.
import type { ComponentChildren } from 'preact';
import type { Problem } from './errors.js';
import { utcDateTime } from './time.js';

let nextId = 0;
export const fieldId = (name: string): string => `f-${name}-${++nextId}`;

/** The message of `problem` when it names `names` (or, for `names` undefined, when it names no field of `known`). */
export function messageFor(problem: Problem | undefined, names: string[] | undefined, known: string[] = []): string | undefined {
  if (!problem) return undefined;
  if (names) return problem.field && names.includes(problem.field) ? problem.message : undefined;
  return problem.field && known.includes(problem.field) ? undefined : problem.message;
}

export function Field(props: { id: string; label: string; error: string | undefined; children: ComponentChildren; hint?: string }) {
  const errorId = `${props.id}-error`;
  return (
    <div class={props.error ? 'field invalid' : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && !props.error ? <small class="hint">{props.hint}</small> : null}
      {props.error ? (
        <p class="error" id={errorId} role="alert">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

export function FormError({ message }: { message: string | undefined }) {
  return message ? (
    <p class="error" role="alert">
      {message}
    </p>
  ) : null;
}

/** An ISO instant as a UTC date and 24-hour time (time.ts), with the exact value on hover. */
export function When({ at, empty = '—' }: { at: string | null | undefined; empty?: string }) {
  if (!at) return <span class="muted">{empty}</span>;
  return (
    <time dateTime={at} title={at}>
      {utcDateTime(at)}
    </time>
  );
}
