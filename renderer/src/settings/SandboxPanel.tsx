import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  getRehearsal,
  rehearsalFaults,
  setRehearsal,
  type RehearsalFault,
  type RehearsalRequest,
  type RehearsalState,
} from '../../../shared/api/sandbox.js';
import { platformKeys, postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import { callApi } from '../api/transport/client.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { ErrorText, Spinner } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { faultNames, peerNames, whatYouSee } from './rehearsal-words.js';

const rehearsalKey = ['sandbox', 'rehearsal'] as const;

/**
 * Settings' sandbox panel (DESIGN §8, issue #30.7): make a simulated peer fail, throttle, go
 * offline or refuse one platform, see what the dashboard will then show, and put it back.
 */
export function SandboxPanel() {
  const state = useQuery({
    queryKey: rehearsalKey,
    queryFn: ({ signal }) => callApi(getRehearsal, { signal }),
  });
  return (
    <Panel title="Rehearse a failure (sandbox)" testId="sandbox-panel">
      <p className="muted small">
        Make a simulated peer misbehave to see how the bridge and this dashboard show it. Nothing here reaches
        a real service; Put back restores the peer.
      </p>
      <QueryContent query={state} what="the sandbox peers" skeletonLines={4}>
        {(data) => (
          <div className="rehearsals">
            {data.peers.map((peer) => (
              <PeerRehearsal key={peer.peer} state={peer} />
            ))}
          </div>
        )}
      </QueryContent>
    </Panel>
  );
}

function PeerRehearsal({ state }: { state: RehearsalState }) {
  const queryClient = useQueryClient();
  const [fault, setFault] = useState<RehearsalFault>(state.fault === 'none' ? 'fail' : state.fault);
  const [platform, setPlatform] = useState<PlatformKey>(state.platform ?? 'photogram');
  const apply = useMutation({
    mutationFn: (body: RehearsalRequest) => callApi(setRehearsal, { body }),
    onSuccess: (answer) => {
      queryClient.setQueryData(rehearsalKey, answer);
      // Health and every page read the peers: let them find out now rather than at the next probe.
      void queryClient.invalidateQueries();
    },
  });
  const choices = rehearsalFaults.filter(
    (f) => f !== 'none' && (f !== 'refuse-platform' || state.peer === 'postsvc'),
  );
  const active = state.fault !== 'none';
  const shown = active ? state.fault : fault;
  const id = `rehearsal-${state.peer}`;
  return (
    <div className="rehearsal" data-testid={id} data-fault={state.fault}>
      <div className="rehearsal-head">
        <strong>{peerNames[state.peer]}</strong>{' '}
        <StatusPill tone={active ? 'bad' : 'ok'}>
          {active && state.fault === 'refuse-platform' && state.platform
            ? `Refuses ${postingPlatforms[state.platform].label}`
            : faultNames[state.fault]}
        </StatusPill>
      </div>
      {active ? (
        <button
          type="button"
          className="button button-small"
          disabled={apply.isPending}
          onClick={() => apply.mutate({ peer: state.peer, fault: 'none' })}
        >
          {apply.isPending ? <Spinner label="Putting back…" /> : 'Put back'}
        </button>
      ) : (
        <div className="rehearsal-controls">
          <select
            id={`${id}-fault`}
            aria-label={`What ${peerNames[state.peer]} should do`}
            className="input"
            value={fault}
            onChange={(event) => setFault(event.target.value as RehearsalFault)}
          >
            {choices.map((f) => (
              <option key={f} value={f}>
                {faultNames[f]}
              </option>
            ))}
          </select>
          {fault === 'refuse-platform' ? (
            <>
              <select
                id={`${id}-platform`}
                aria-label="Platform to refuse"
                className="input"
                value={platform}
                onChange={(event) => setPlatform(event.target.value as PlatformKey)}
              >
                {platformKeys.map((p) => (
                  <option key={p} value={p}>
                    {postingPlatforms[p].label}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <button
            type="button"
            className="button button-small button-danger"
            disabled={apply.isPending}
            onClick={() =>
              apply.mutate(
                fault === 'refuse-platform'
                  ? { peer: 'postsvc', fault, platform }
                  : { peer: state.peer, fault },
              )
            }
          >
            {apply.isPending ? <Spinner label="Applying…" /> : 'Rehearse'}
          </button>
        </div>
      )}
      {whatYouSee[state.peer][shown] ? (
        <p className="small rehearsal-see" data-testid={`${id}-see`}>
          <span className="muted">{active ? 'Now you see: ' : 'You will then see: '}</span>
          {whatYouSee[state.peer][shown]}
        </p>
      ) : null}
      {apply.isError ? (
        <p className="field-error" role="alert">
          <ErrorText error={apply.error} />
        </p>
      ) : null}
    </div>
  );
}
