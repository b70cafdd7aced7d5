import type { ComponentType } from 'react';
import type { IconName } from './components/Icon.js';
import { ActivityPage } from './activity/ActivityPage.js';
import { AnalyticsPage } from './analytics/AnalyticsPage.js';
import { BroadcastsPage } from './broadcasts/BroadcastsPage.js';
import { ClipsPage } from './clips/ClipsPage.js';
import { GuestsPage } from './guests/GuestsPage.js';
import { OverviewPage } from './overview/OverviewPage.js';
import { PostsPage } from './posts/PostsPage.js';
import { RecorderPage } from './recorder/RecorderPage.js';
import { SettingsPage } from './settings/SettingsPage.js';

export interface PageEntry {
  /** Route path under the hash, e.g. `/posts` is `#/posts`. */
  path: string;
  /** Navigation label. */
  label: string;
  icon: IconName;
  component: ComponentType;
}

/**
 * Every page of the dashboard, in navigation order: the router and the sidebar are built from
 * this list. Each page lives in its area folder (`src/<area>/<Name>Page.tsx`, the areas of
 * main/areas; posting is `posts` here) and keeps its export name.
 */
export const pages: readonly PageEntry[] = [
  { path: '/', label: 'Overview', icon: 'overview', component: OverviewPage },
  { path: '/posts', label: 'Posts', icon: 'posts', component: PostsPage },
  { path: '/broadcasts', label: 'Broadcasts', icon: 'broadcasts', component: BroadcastsPage },
  { path: '/recorder', label: 'Recorder', icon: 'recorder', component: RecorderPage },
  { path: '/analytics', label: 'Analytics', icon: 'analytics', component: AnalyticsPage },
  { path: '/guests', label: 'Guests', icon: 'guests', component: GuestsPage },
  { path: '/clips', label: 'Clips', icon: 'clips', component: ClipsPage },
  { path: '/activity', label: 'Activity', icon: 'activity', component: ActivityPage },
  { path: '/settings', label: 'Settings', icon: 'settings', component: SettingsPage },
];
