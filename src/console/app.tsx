// The console's shell: sign in (ADMIN only), then the dashboard. A saved session (sessionStorage)
// is checked with GET /api/v1/user/me on load; a MEMBER is told plainly that the console is for
// ADMINs and their new session is ended at once.
import { Component, type ComponentChildren } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { admit, type State } from './admit.js';
import { ApiKeys } from './api-keys.js';
import { Console } from './context.js';
import { Courses } from './courses.js';
import { isSessionOver, problemOf } from './errors.js';
import { LiveFeed } from './live-feed.js';
import { PageViews } from './page-views.js';
import { forgetSession, savedSession } from './session.js';
import { SignIn } from './sign-in.js';
import { Webhooks } from './webhooks.js';

export function App() {
  const [state, setState] = useState<State>(() => (savedSession() ? { phase: 'checking' } : { phase: 'signed-out' }));

  useEffect(() => {
    const session = savedSession();
    if (!session) return;
    admit(session).then(setState, (error: unknown) => {
      forgetSession();
      setState({ phase: 'signed-out', notice: isSessionOver(error) ? 'Your session has ended: sign in again.' : problemOf(error).message });
    });
  }, []);

  const sessionOver = useCallback((message: string) => {
    forgetSession();
    setState({ phase: 'signed-out', notice: `Your session has ended (the server says: ${message}). Sign in again.` });
  }, []);

  const signOut = useCallback(async () => {
    if (state.phase !== 'signed-in') return;
    forgetSession();
    setState({ phase: 'signed-out', notice: 'Signed out.' });
    await state.client.auth.logout(state.session.refreshToken).catch(() => undefined);
  }, [state]);

  const context = useMemo(
    () => (state.phase === 'signed-in' ? { client: state.client, me: state.me, eventTypes: state.eventTypes, feed: state.feed, sessionOver } : undefined),
    [state, sessionOver],
  );

  if (state.phase === 'checking') return <p class="loading">Checking your session…</p>;
  if (state.phase === 'signed-out' || !context) {
    return <SignIn notice={state.phase === 'signed-out' ? state.notice : undefined} onSignedIn={setState} />;
  }
  return (
    <Console.Provider value={context}>
      <header class="topbar">
        <strong>
          <a href="/">Learnstream</a> console
        </strong>
        <nav aria-label="Pages">
          <a href="/reference">API reference</a>
        </nav>
        <span class="muted zone">Times in UTC, 24-hour</span>
        <span class="who">
          {context.me.name} <span class="muted">({context.me.email}, {context.me.role})</span>
        </span>
        <button type="button" class="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main class="dashboard">
        <div class="main-column">
          <Guard name="Page views">
            <PageViews />
          </Guard>
          <Guard name="Courses">
            <Courses />
          </Guard>
          <Guard name="Webhook endpoints">
            <Webhooks />
          </Guard>
          <Guard name="API keys">
            <ApiKeys />
          </Guard>
        </div>
        <aside class="side-column">
          <Guard name="Live events">
            <LiveFeed />
          </Guard>
        </aside>
      </main>
    </Console.Provider>
  );
}

/** A section that fails to render says so, and the rest of the console stays usable. */
class Guard extends Component<{ name: string; children: ComponentChildren }, { error?: string }> {
  override state: { error?: string } = {};
  override componentDidCatch(error: unknown) {
    this.setState({ error: problemOf(error).message });
  }
  override render() {
    if (this.state.error) {
      return (
        <section class="card">
          <h2>{this.props.name}</h2>
          <p class="error" role="alert">
            This section stopped working: {this.state.error}. Reload the page to try again.
          </p>
        </section>
      );
    }
    return this.props.children;
  }
}
