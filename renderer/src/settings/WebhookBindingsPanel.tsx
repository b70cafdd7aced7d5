import { errorMessage } from '../api/transport/client.js';
import { LocalTime } from '../components/LocalTime.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState } from '../components/States.js';
import { useClearWebhookBinding, useWebhookBindings } from './webhook-bindings-api.js';

/**
 * DESIGN §7: each CRM webhook id and the route it was first seen on. A body it signs for another
 * route is refused (401); when a CRM webhook really moved to another event, clearing its binding
 * lets it bind again where it is next seen.
 */
export function WebhookBindingsPanel() {
  const bindings = useWebhookBindings();
  const clear = useClearWebhookBinding();
  return (
    <Panel title="Webhook bindings" testId="webhook-bindings">
      <p className="muted small">
        Each CRM webhook signs with its own id. An id may only deliver to the route it was first seen on; a
        body it signs for another route is refused.
      </p>
      <QueryContent query={bindings} what="webhook bindings">
        {(data) =>
          data.data.length === 0 ? (
            <EmptyState title="No webhook has signed a delivery yet">
              Bindings appear here once the CRM sends its first signed webhook.
            </EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Webhook id</th>
                    <th scope="col">Route</th>
                    <th scope="col">Since</th>
                    <th scope="col">
                      <span className="visually-hidden">Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.data.map((binding) => (
                    <tr key={binding.webhookId} data-testid="webhook-binding">
                      <td className="mono break" data-label="Webhook id">
                        {binding.webhookId}
                      </td>
                      <td className="mono" data-label="Route">
                        /webhooks/{binding.event}
                      </td>
                      <td data-label="Since">
                        <LocalTime iso={binding.boundAt} utc={false} />
                      </td>
                      <td>
                        <button
                          type="button"
                          className="button button-ghost button-small"
                          disabled={clear.isPending && clear.variables === binding.webhookId}
                          onClick={() => clear.mutate(binding.webhookId)}
                          aria-label={`Clear the binding of webhook ${binding.webhookId}`}
                        >
                          Clear
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryContent>
      {clear.isError ? (
        <p className="field-error" role="alert">
          Could not clear the binding: {errorMessage(clear.error)}
        </p>
      ) : null}
    </Panel>
  );
}
