import { useEffect } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useHealth } from '../api/health.js';
import { desktop } from '../api/desktop.js';
import { pages } from '../routes.js';
import { Icon } from './Icon.js';
import { LiveIndicator } from './LiveIndicator.js';
import { StatusPill } from './StatusPill.js';

/** Dark header (bridge status, sandbox badge, live state), the page list as navigation, the page. */
export function AppShell() {
  const location = useLocation();
  useEffect(() => {
    const page = pages.find((entry) => entry.path === location.pathname);
    document.title = page ? `${page.label} · Studio Bridge` : 'Studio Bridge';
  }, [location.pathname]);

  return (
    <div className="shell">
      <AppHeader />
      <nav className="sidebar" aria-label="Pages">
        <div className="sidebar-inner">
          <ul>
            {pages.map((page) => (
              <li key={page.path}>
                <NavLink to={page.path} end={page.path === '/'} className="nav-link">
                  <Icon name={page.icon} />
                  <span>{page.label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
          {desktop ? (
            <p className="sidebar-foot">
              Desktop app{desktop.version ? ` v${desktop.version}` : ''}
              {desktop.platform ? ` · ${desktop.platform}` : ''}
            </p>
          ) : null}
        </div>
      </nav>
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}

function AppHeader() {
  const health = useHealth();
  return (
    <header className="topbar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          <Icon name="broadcasts" size={20} />
        </span>
        <span className="brand-name">Studio Bridge</span>
        {health.data?.sandbox ? (
          <span
            className="badge-sandbox"
            data-testid="sandbox-badge"
            title="Simulated peers: nothing reaches real accounts"
          >
            Sandbox
          </span>
        ) : null}
      </div>
      <div className="topbar-status">
        <LiveIndicator />
        {health.isPending ? (
          <StatusPill tone="neutral">Checking bridge…</StatusPill>
        ) : health.isError ? (
          <StatusPill tone="bad" title={health.error.message}>
            Bridge unreachable
          </StatusPill>
        ) : (
          <StatusPill
            tone={health.data.status === 'ok' ? 'ok' : 'warn'}
            title={`Bridge ${health.data.version}`}
          >
            {health.data.status === 'ok' ? 'Bridge OK' : 'Bridge degraded'}
          </StatusPill>
        )}
        {health.data ? <span className="topbar-version mono">v{health.data.version}</span> : null}
      </div>
    </header>
  );
}
