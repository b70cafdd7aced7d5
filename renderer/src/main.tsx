import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { keyStore } from './api/key-store.js';
import { createQueryClient } from './api/query-client.js';
import { App } from './App.js';
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

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
