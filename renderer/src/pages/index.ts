import type { ComponentType } from 'react';
import type { IconName } from '../components/Icon.js';
import { ActivityPage } from './ActivityPage.js';
import { AnalyticsPage } from './AnalyticsPage.js';
import { BroadcastsPage } from './BroadcastsPage.js';
import { ClipsPage } from './ClipsPage.js';
import { GuestsPage } from './GuestsPage.js';
import { OverviewPage } from './OverviewPage.js';
import { PostsPage } from './PostsPage.js';
import { RecorderPage } from './RecorderPage.js';
import { SettingsPage } from './SettingsPage.js';

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
 * this list. To build out a page, edit its own file (`<Name>Page.tsx`) and keep its export name.
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
