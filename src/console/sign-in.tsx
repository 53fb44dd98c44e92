// Sign in with e-mail and password (POST /api/auth/login). A wrong password shows the server's
// message ("Invalid email or password") under the password; a MEMBER gets a plain refusal.
import { useState } from 'preact/hooks';
import type { TokenPair } from '../client/index.js';
import { admit, NotAdmin, type SignedInState } from './admit.js';
import { problemOf, type Problem } from './errors.js';
import { Field, fieldId, FormError, messageFor } from './field.js';
import { anonymousClient, saveSession } from './session.js';

const FIELDS = ['email', 'password'];
const ids = { email: fieldId('email'), password: fieldId('password') };

export function SignIn({ notice, onSignedIn }: { notice: string | undefined; onSignedIn: (state: SignedInState) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [refusal, setRefusal] = useState<string>();

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    setRefusal(undefined);
    try {
      let pair: TokenPair;
      try {
        pair = await anonymousClient().auth.login({ email, password });
      } catch (error) {
        const found = problemOf(error);
        // The server's one message for a wrong e-mail or password belongs to the password.
        setProblem(found.field ? found : { ...found, field: 'password' });
        return;
      }
      onSignedIn(await admit(saveSession(pair)));
    } catch (error) {
      if (error instanceof NotAdmin) setRefusal(error.message);
      else setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="sign-in">
      <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Learnstream console</h1>
        <p class="muted">For administrators: webhooks and their deliveries, live events, API keys and page views.</p>
        {notice ? <p class="notice">{notice}</p> : null}
        {refusal ? (
          <p class="refusal" role="alert">
            {refusal}
          </p>
        ) : null}
        <Field id={ids.email} label="E-mail" error={messageFor(problem, ['email'])}>
          <input
            id={ids.email}
            name="email"
            type="email"
            autocomplete="username"
            required
            value={email}
            aria-invalid={messageFor(problem, ['email']) ? true : undefined}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
        <Field id={ids.password} label="Password" error={messageFor(problem, ['password'])}>
          <input
            id={ids.password}
            name="password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            aria-invalid={messageFor(problem, ['password']) ? true : undefined}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </Field>
        <FormError message={messageFor(problem, undefined, FIELDS)} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
