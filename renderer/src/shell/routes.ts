import { lazy, type ComponentType } from 'react';
import type { IconName } from '../components/Icon.js';
import { isPath } from '../hash-route.js';
import { OverviewPage } from '../overview/OverviewPage.js';

/**
 * Every page but the Overview is its own chunk, loaded on first visit: the first paint only
 * needs the shell and the Overview (twitter-text, recharts and the other pages come later).
 */
const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const PostsPage = page(() => import('../posting/PostsPage.js'), 'PostsPage');
const BroadcastsPage = page(() => import('../broadcasts/BroadcastsPage.js'), 'BroadcastsPage');
const RecorderPage = page(() => import('../recorder/RecorderPage.js'), 'RecorderPage');
const AnalyticsPage = page(() => import('../analytics/AnalyticsPage.js'), 'AnalyticsPage');
const GuestsPage = page(() => import('../guests/GuestsPage.js'), 'GuestsPage');
const ClipsPage = page(() => import('../clips/ClipsPage.js'), 'ClipsPage');
const ActivityPage = page(() => import('../activity/ActivityPage.js'), 'ActivityPage');
const SettingsPage = page(() => import('../settings/SettingsPage.js'), 'SettingsPage');
const ProductionsPage = page(() => import('../productions/ProductionsPage.js'), 'ProductionsPage');

export interface PageEntry {
  /** Route path under the hash, e.g. `/posts` is `#/posts`. */
  path: string;
  /** Navigation label. */
  label: string;
  icon: IconName;
  component: ComponentType;
  /** `<path>/<id>` is this page too (one production: `#/productions/<id>`). */
  withId?: true;
}

/**
 * Every page of the dashboard, in navigation order: the router and the sidebar are built from
 * this list. Each page lives in its area folder (`src/<area>/<Name>Page.tsx`, the areas of
 * main/areas) and keeps its export name.
 */
export const pages: readonly PageEntry[] = [
  { path: '/', label: 'Overview', icon: 'overview', component: OverviewPage },
  {
    path: '/productions',
    label: 'Productions',
    icon: 'productions',
    component: ProductionsPage,
    withId: true,
  },
  { path: '/posts', label: 'Posts', icon: 'posts', component: PostsPage },
  { path: '/broadcasts', label: 'Broadcasts', icon: 'broadcasts', component: BroadcastsPage },
  { path: '/recorder', label: 'Recorder', icon: 'recorder', component: RecorderPage },
  { path: '/analytics', label: 'Analytics', icon: 'analytics', component: AnalyticsPage },
  { path: '/guests', label: 'Guests', icon: 'guests', component: GuestsPage },
  { path: '/clips', label: 'Clips', icon: 'clips', component: ClipsPage },
  { path: '/activity', label: 'Activity', icon: 'activity', component: ActivityPage },
  { path: '/settings', label: 'Settings', icon: 'settings', component: SettingsPage },
];

/** The page at an address's path (hash-route.ts reads typed addresses leniently), if any. */
export function pageAt(pathname: string): PageEntry | undefined {
  const parent = pathname.replace(/\/[^/]+\/?$/, '');
  return pages.find((entry) => isPath(pathname, entry.path) || (entry.withId && isPath(parent, entry.path)));
}
