import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { keyStore } from './api/auth/key-store.js';
import { createQueryClient } from './api/transport/query-client.js';
import { App } from './shell/App.js';
import { opensOverview, prefetchOverview } from './overview/prefetch.js';
import './styles.css';

const queryClient = createQueryClient();

// Answers fetched with another key must not be shown (or kept) for the new one.
let currentKey = keyStore.get().key;
keyStore.subscribe(() => {
  const next = keyStore.get().key;
  if (next !== currentKey) queryClient.clear();
  currentKey = next;
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/** The longest the first render waits for the Overview's data; a slow bridge gets skeletons. */
const FIRST_DATA_WAIT_MS = 100;

// Opening on the Overview with its answers already asked (api/preloaded.ts): they are usually in
// by the time this runs, so the first render waits for them and shows data, once, rather than
// skeletons and a second render (overview/prefetch.ts).
const firstData =
  window.__studioBridgePreload && keyStore.get().key !== null && opensOverview(window.location.hash)
    ? Promise.race([
        prefetchOverview(queryClient),
        new Promise((resolve) => setTimeout(resolve, FIRST_DATA_WAIT_MS)),
      ])
    : Promise.resolve();

void firstData.then(() =>
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  ),
);
