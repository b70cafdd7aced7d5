import { Suspense } from 'react';
import { HashRouter, Route, Routes } from 'react-router';
import { useApiKey } from './api/use-api-key.js';
import { useLiveActivityConnection } from './api/use-live-activity.js';
import { AppShell } from './components/AppShell.js';
import { KeyScreen } from './components/KeyScreen.js';
import { NotFoundPage } from './components/NotFoundPage.js';
import { Skeleton } from './components/States.js';
import { pages } from './routes.js';

export function App() {
  const { key, rejected } = useApiKey();
  const usable = key !== null && !rejected;
  useLiveActivityConnection(usable ? key : null);

  if (!usable) return <KeyScreen rejected={rejected} />;
  // Hash routing: the same build works from the bridge at `/` and from file:// in the desktop shell.
  return (
    <HashRouter>
      <Routes>
        <Route element={<AppShell />}>
          {pages.map(({ path, component: Page }) => {
            const element = (
              <Suspense fallback={<Skeleton lines={6} label="Loading the page" />}>
                <Page />
              </Suspense>
            );
            return path === '/' ? (
              <Route key={path} index element={element} />
            ) : (
              <Route key={path} path={path} element={element} />
            );
          })}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </HashRouter>
  );
}
