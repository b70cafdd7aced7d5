import { useState } from 'react';
import type { RouteContract } from '../../../shared/api/contract.js';
import { errorMessage } from '../api/transport/client.js';
import { Spinner } from '../components/States.js';
import { saveExport } from './api.js';

/** A button that downloads one export; says so while it works and when it fails. */
export function ExportButton({
  contract,
  params,
  query,
  label,
  title,
}: {
  contract: RouteContract;
  params: Record<string, string | number>;
  query?: Record<string, string>;
  label: string;
  title: string;
}) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const download = async () => {
    setState({ busy: true, error: null });
    try {
      await saveExport(contract, params, query);
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) });
    }
  };
  return (
    <>
      <button
        type="button"
        className="button button-small"
        title={title}
        disabled={state.busy}
        onClick={() => void download()}
      >
        {state.busy ? <Spinner label="Preparing…" /> : label}
      </button>
      {state.error ? (
        <span className="field-error" role="alert">
          Couldn't download {label}: {state.error}
        </span>
      ) : null}
    </>
  );
}
