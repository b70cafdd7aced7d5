import { Suspense } from 'react';
import { useOutageRecovery } from '../api/outage/outage-recovery.js';
import { useApiKey } from '../api/auth/use-api-key.js';
import { useLiveActivityConnection } from '../api/live/use-live-activity.js';
import { KeyScreen } from '../components/KeyScreen.js';
import { NotFoundPage } from '../components/NotFoundPage.js';
import { Skeleton } from '../components/States.js';
import { useRoute } from '../hash-router.js';
import { AppShell } from './AppShell.js';
import { pageAt } from './routes.js';

export function App() {
  const { key, rejected, fromLink } = useApiKey();
  const usable = key !== null && !rejected;
  useLiveActivityConnection(usable ? key : null);
  useOutageRecovery();

  if (!usable) return <KeyScreen rejected={rejected} fromLink={fromLink} />;
  return (
    <AppShell>
      <CurrentPage />
    </AppShell>
  );
}

/** The page at the address's path (hash-router.tsx), or "not found". */
function CurrentPage() {
  const { pathname } = useRoute();
  const page = pageAt(pathname);
  if (!page) return <NotFoundPage />;
  const Page = page.component;
  return (
    <Suspense key={page.path} fallback={<Skeleton lines={6} label="Loading the page" />}>
      <Page />
    </Suspense>
  );
}
