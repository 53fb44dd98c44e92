// One way to run a call from a button or a form: it tracks whether the call is running and
// keeps the server's message (with the field it names) for the form to show next to that field.
// Nothing escapes as an unhandled rejection: a failure is always shown, and a token that stopped
// working signs the console out (with the reason) instead.
import { useCallback, useState } from 'preact/hooks';
import { isSessionOver, problemOf, type Problem } from './errors.js';
import { useConsole } from './context.js';

export interface Action<A extends unknown[]> {
  run: (...args: A) => Promise<void>;
  busy: boolean;
  problem: Problem | undefined;
  clear: () => void;
}

export function useAction<A extends unknown[]>(work: (...args: A) => Promise<void>): Action<A> {
  const { sessionOver } = useConsole();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setProblem(undefined);
      try {
        await work(...args);
      } catch (error) {
        if (isSessionOver(error)) sessionOver(problemOf(error).message);
        else setProblem(problemOf(error));
      } finally {
        setBusy(false);
      }
    },
    [work, sessionOver],
  );
  return { run, busy, problem, clear: () => setProblem(undefined) };
}
