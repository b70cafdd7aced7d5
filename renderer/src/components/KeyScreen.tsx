import { useState } from 'react';
import type { FormEvent } from 'react';
import { getHealth } from '../../../shared/api/health.js';
import { ApiError, callApi, errorMessage } from '../api/transport/client.js';
import { bridgeLabel } from '../api/transport/desktop.js';
import { keyStore } from '../api/auth/key-store.js';
import { Icon } from './Icon.js';
import { Spinner } from './States.js';

type Attempt = { state: 'idle' } | { state: 'checking' } | { state: 'failed'; message: string };

/**
 * Shown when there is no key or the bridge refused the one in use (`rejected`; `fromLink` when it
 * came from a start link, api/auth/key-store.ts). A typed key is tried against GET /health first: a key
 * the bridge accepts unlocks the peers section of the answer.
 */
export function KeyScreen({ rejected, fromLink }: { rejected: boolean; fromLink: boolean }) {
  const [value, setValue] = useState('');
  const [reveal, setReveal] = useState(false);
  const [attempt, setAttempt] = useState<Attempt>({ state: 'idle' });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const key = value.trim();
    if (!key) {
      setAttempt({ state: 'failed', message: 'Paste the bridge API key first.' });
      return;
    }
    setAttempt({ state: 'checking' });
    try {
      const health = await callApi(getHealth, { key });
      if (health.peers === undefined) {
        setAttempt({ state: 'failed', message: 'The bridge did not accept this key.' });
        return;
      }
      keyStore.set(key);
    } catch (error) {
      const message =
        error instanceof ApiError && error.isUnauthorized
          ? 'The bridge refused this key. Check it and try again.'
          : errorMessage(error);
      setAttempt({ state: 'failed', message });
    }
  }

  return (
    <div className="key-screen">
      <form className="key-card" onSubmit={(event) => void submit(event)} aria-labelledby="key-title">
        <div className="key-mark" aria-hidden="true">
          <Icon name="key" size={26} />
        </div>
        <h1 id="key-title">Connect to Studio Bridge</h1>
        {rejected && fromLink ? (
          <p className="field-error" role="alert" data-testid="key-link-refused">
            The bridge refused the key in the start link you opened. A link printed by an earlier start of the
            bridge stops working when its key changes: open the link it printed this time, or paste the
            current key below.
          </p>
        ) : (
          <p className="key-lead">
            {rejected
              ? 'The bridge refused the key this dashboard was using. It may have been changed. Paste the current key.'
              : 'This browser needs the bridge API key once. It is kept in this browser only.'}
          </p>
        )}
        <label className="field-label" htmlFor="api-key">
          Bridge API key
        </label>
        <div className="key-input-row">
          <input
            id="api-key"
            className="input mono"
            type={reveal ? 'text' : 'password'}
            autoComplete="off"
            spellCheck={false}
            autoFocus
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-invalid={attempt.state === 'failed'}
            aria-describedby="key-help"
          />
          <button type="button" className="button button-ghost" onClick={() => setReveal(!reveal)}>
            {reveal ? 'Hide' : 'Show'}
          </button>
        </div>
        {attempt.state === 'failed' ? (
          <p className="field-error" role="alert">
            {attempt.message}
          </p>
        ) : null}
        <button
          type="submit"
          className="button button-primary key-submit"
          disabled={attempt.state === 'checking'}
        >
          {attempt.state === 'checking' ? <Spinner label="Checking key…" /> : 'Connect'}
        </button>
        <div id="key-help" className="key-help">
          <p>Where to find it:</p>
          <ul>
            <li>in the desktop app, on the Settings page (BRIDGE_API_KEY);</li>
            <li>
              on the studio server, in <code>config.json</code> in the bridge's data directory, or the{' '}
              <code>BRIDGE_API_KEY</code> environment variable it was started with.
            </li>
          </ul>
          <p className="muted">Bridge: {bridgeLabel()}</p>
        </div>
      </form>
    </div>
  );
}
