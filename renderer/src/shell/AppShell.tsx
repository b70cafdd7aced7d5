import { useEffect, useState, type ReactNode } from 'react';
import { useHealth } from '../api/transport/health.js';
import { desktop } from '../api/transport/desktop.js';
import { unreadFor } from '../api/live/failure-alerts.js';
import { failureStore, useFailures } from '../api/live/failure-store.js';
import { OnAir } from '../broadcasts/OnAir.js';
import { Icon } from '../components/Icon.js';
import { LiveIndicator } from '../components/LiveIndicator.js';
import { StatusPill } from '../components/StatusPill.js';
import { AlarmAlerts } from '../alarms/AlarmAlerts.js';
import { NavLink, useRoute } from '../hash-router.js';
import { HeaderSearch } from './HeaderSearch.js';
import { OutageBanner } from './OutageBanner.js';
import { RecIndicator } from './RecIndicator.js';
import { bridgeStatus } from './bridge-status.js';
import type { HealthResponse } from '../../../shared/api/health.js';
import { pageAt, pages } from './routes.js';

/**
 * Dark header (bridge status, sandbox badge, ON AIR, live state, notifications), the page list as
 * navigation (a menu on narrow windows) with unread failures per page, the page.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { pathname } = useRoute();
  const page = pageAt(pathname);
  const { unread } = useFailures();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    document.title = page ? `${page.label} · Studio Bridge` : 'Studio Bridge';
  }, [page]);
  // Opening a page reads its failures; one that arrives while its page is open is seen at once.
  const pagePath = page?.path ?? pathname;
  useEffect(() => {
    failureStore.seen(pagePath);
  }, [unread, pagePath]);

  return (
    <div className={`shell ${menuOpen ? 'shell-menu-open' : ''}`.trim()}>
      <AppHeader menuOpen={menuOpen} onMenu={() => setMenuOpen((open) => !open)} />
      <nav className="sidebar" id="page-nav" aria-label="Pages">
        <div className="sidebar-inner">
          <ul>
            {pages.map((entry) => {
              const count = unreadFor(unread, entry.path);
              return (
                <li key={entry.path}>
                  <NavLink
                    to={entry.path}
                    within={entry === page}
                    className="nav-link"
                    onClick={() => setMenuOpen(false)}
                  >
                    <Icon name={entry.icon} />
                    <span>{entry.label}</span>
                    {count > 0 ? (
                      <span
                        className="nav-badge"
                        data-testid={`unread-${entry.label.toLowerCase()}`}
                        title={`${count} unread ${count === 1 ? 'failure' : 'failures'}`}
                      >
                        {count}
                      </span>
                    ) : null}
                  </NavLink>
                </li>
              );
            })}
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
        <OutageBanner />
        {children}
      </main>
    </div>
  );
}

function AppHeader({ menuOpen, onMenu }: { menuOpen: boolean; onMenu: () => void }) {
  const health = useHealth();
  return (
    <header className="topbar">
      <div className="brand">
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="page-nav"
          onClick={onMenu}
        >
          <span className="menu-bars" aria-hidden="true" />
          <span className="visually-hidden">Menu</span>
        </button>
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
      <HeaderSearch />
      <div className="topbar-status">
        <OnAir />
        <RecIndicator />
        <AlarmAlerts />
        <NotifyToggle />
        <LiveIndicator />
        {health.isPending ? (
          <StatusPill tone="neutral">Checking bridge…</StatusPill>
        ) : health.isError ? (
          <StatusPill
            tone="bad"
            // Words first; the browser's own line (e.g. "Failed to fetch") stays as the detail.
            title={`The dashboard gets no answer from the bridge and keeps trying (${health.error.message})`}
          >
            Bridge unreachable
          </StatusPill>
        ) : (
          <BridgeStatusPill health={health.data} />
        )}
        {health.data ? <span className="topbar-version mono">v{health.data.version}</span> : null}
      </div>
    </header>
  );
}

function BridgeStatusPill({ health }: { health: HealthResponse }) {
  const { tone, label, title } = bridgeStatus(health);
  return (
    <span data-testid="bridge-status">
      <StatusPill tone={tone} title={title}>
        {label}
      </StatusPill>
    </span>
  );
}

/**
 * "Notify me": failure notifications, asked for from this click (browsers refuse to ask otherwise).
 * On and off differ in words ("Notifications on"/"off"), icon (bell / bell struck through) and
 * style, not in colour alone; at 390 "Notifications" is hidden visually but stays in the name.
 */
function NotifyToggle() {
  const { notify, blocked } = useFailures();
  const state = notify ? 'on' : 'off';
  return (
    <button
      type="button"
      className={`notify-toggle ${notify ? 'notify-on' : ''}`.trim()}
      aria-pressed={notify}
      data-state={state}
      disabled={blocked && !notify}
      title={
        blocked
          ? 'Notifications are blocked for this page: allow them in the browser’s site settings'
          : notify
            ? 'Failed posts, publishes, workflows and collections raise a notification. Click to stop.'
            : 'Raise a notification when a post, publish, workflow or collection fails'
      }
      onClick={() => void failureStore.toggleNotify()}
    >
      <Icon name={notify ? 'bell' : 'bell-off'} size={15} />
      <span className="notify-label">
        <span className="notify-prefix">Notifications </span>
        {state}
      </span>
    </button>
  );
}
