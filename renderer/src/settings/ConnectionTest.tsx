import { useState, type FormEvent } from 'react';
import type { ConnectionTestRequest, TestablePeer } from '../../../shared/api/settings.js';
import { errorMessage } from '../api/transport/client.js';
import { connectionTestWords } from '../api/words.js';
import { Spinner } from '../components/States.js';
import { useTestConnection } from './api.js';
import type { PeerSectionWords } from './sections.js';

type SecretField = PeerSectionWords['testSecrets'][number]['field'];
type Given = { url?: string } & Partial<Record<SecretField, string>>;

/** Only what was typed goes: a field left empty sends nothing (the saved value may apply). */
const some = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

/** The request of this peer's kind: each peer takes its own fields. */
function requestFor(peer: TestablePeer, given: Given): ConnectionTestRequest {
  const url = some(given.url?.trim());
  switch (peer) {
    case 'crm':
      return {
        peer,
        url,
        apiKey: some(given.apiKey),
        username: some(given.username),
        password: some(given.password),
      };
    case 'postsvc':
    case 'gateway':
      return { peer, url, apiKey: some(given.apiKey) };
    case 'automation':
      return { peer, url, authHeader: some(given.authHeader) };
    case 'obs':
      return { peer, url, password: some(given.password) };
  }
}

/**
 * Test connection (issue #41.1): tries the peer at its address in force, or at another address typed
 * here with its own key (a saved key goes only to the origin it was saved for: issue #35.3), and
 * says in words what the peer answered. Nothing is saved.
 */
export function ConnectionTest({
  section,
  urlInForce,
}: {
  section: PeerSectionWords;
  urlInForce: string | null;
}) {
  const test = useTestConnection();
  const [address, setAddress] = useState('');
  const [secrets, setSecrets] = useState<Partial<Record<SecretField, string>>>({});

  const run = (extra: Given) => test.mutate(requestFor(section.id, extra));

  function tryAnother(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    run({ url: address, ...secrets });
  }

  const words = test.data ? connectionTestWords(test.data) : null;
  return (
    <div className="connection-test">
      <div className="connection-test-row">
        <button
          type="button"
          className="button button-small"
          onClick={() => run({})}
          disabled={test.isPending || urlInForce === null}
        >
          Test connection
        </button>
        <span className="muted small">
          {urlInForce === null ? (
            'No address in force yet.'
          ) : (
            <>
              at{' '}
              <span className="mono break" data-testid="connection-url">
                {urlInForce}
              </span>
            </>
          )}
        </span>
      </div>
      <details className="connection-other">
        <summary>Test another address</summary>
        <form className="edit-form" onSubmit={tryAnother}>
          <label className="field-label" htmlFor={`test-url-${section.id}`}>
            Address to test
          </label>
          <input
            id={`test-url-${section.id}`}
            className="input mono"
            type="url"
            value={address}
            autoComplete="off"
            spellCheck={false}
            placeholder={section.id === 'obs' ? 'ws://host:4455' : 'https://…'}
            onChange={(event) => setAddress(event.target.value)}
          />
          {section.testSecrets.map(({ field, label }) => (
            <div key={field}>
              <label className="field-label" htmlFor={`test-${field}-${section.id}`}>
                {label}
              </label>
              <input
                id={`test-${field}-${section.id}`}
                className="input mono"
                type={field === 'username' ? 'text' : 'password'}
                value={secrets[field] ?? ''}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => setSecrets((values) => ({ ...values, [field]: event.target.value }))}
              />
            </div>
          ))}
          <p className="muted small">
            The saved key goes only to the address it was saved for: for another one, enter its key here.
            Nothing is saved.
          </p>
          <div className="form-actions">
            <button type="submit" className="button button-small" disabled={test.isPending}>
              Test this address
            </button>
          </div>
        </form>
      </details>
      <div role="status" aria-live="polite" data-testid="connection-result">
        {test.isPending ? (
          <span className="muted small">
            <Spinner /> Asking {section.title}…
          </span>
        ) : words ? (
          <p
            className={
              words.tone === 'ok' ? 'field-success' : words.tone === 'warn' ? 'field-warn' : 'field-error'
            }
          >
            {words.text}
          </p>
        ) : test.isError ? (
          <p className="field-error">{errorMessage(test.error)}</p>
        ) : null}
      </div>
    </div>
  );
}
