/**
 * Electron main process (DESIGN §9): a thin shell around the same core as `npm run serve`.
 * One instance; one locked-down window on the bridge's own origin; a tray with the bridge's status.
 * Closing the window keeps the bridge running in the tray (it still receives the CRM's webhooks);
 * "Quit" in the tray, the app menu or a signal stops it.
 *
 * The decisions live in small pure modules beside this one; this file only wires them to Electron.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  safeStorage,
  session,
  shell,
  Tray,
  type MenuItemConstructorOptions,
  type WebContents,
  type WebPreferences,
} from 'electron';
import { startBridge, type RunningBridge } from '../app.js';
import { buildCsp, withCsp } from './csp.js';
import { resolveSqliteNativeBinding } from './native-binding.js';
import { classifyNavigation, isBridgeUrl, isPermissionAllowed, originOf } from './origin-policy.js';
import { JS_FLAGS_RELAUNCH_MARKER, relaunchArgsForJsFlags } from './js-flags.js';
import { API_KEY_CHANNEL, encodeLaunchArg } from './preload-args.js';
import { createSafeStorageSecretStore } from './secret-store.js';
import { describeStartupError } from './startup-error.js';
import { trayMenuModel, trayTooltip, type TrayAction } from './tray-menu.js';

const desktopDir = path.dirname(fileURLToPath(import.meta.url));

let bridge: RunningBridge | undefined;
let mainWindow: BrowserWindow | undefined;
let tray: Tray | undefined; // module-level so it is not garbage-collected
let quitting = false;

function assetPath(name: string): string {
  // Not under dist/: tsc does not copy images. electron-builder.yml packs this folder.
  return path.join(app.getAppPath(), 'main', 'desktop', 'assets', name);
}

function webPreferences(running: RunningBridge): WebPreferences {
  return {
    preload: path.join(desktopDir, 'preload.cjs'),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    webviewTag: false,
    additionalArguments: [
      encodeLaunchArg({ bridgeUrl: running.url, platform: process.platform, version: app.getVersion() }),
    ],
  };
}

/** Applied to every web contents, including any the dashboard opens with window.open. */
function guardNavigation(contents: WebContents, bridgeOrigin: string): void {
  const leaveFor = (url: string): boolean => {
    const verdict = classifyNavigation(url, bridgeOrigin);
    if (verdict === 'external') void shell.openExternal(url);
    return verdict === 'allow';
  };
  contents.on('will-navigate', (event) => {
    if (!leaveFor(event.url)) event.preventDefault();
  });
  // A redirect away from the bridge is not a link the user chose: stop it without opening anything.
  contents.on('will-redirect', (event) => {
    if (classifyNavigation(event.url, bridgeOrigin) !== 'allow') event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) =>
    leaveFor(url) && bridge
      ? { action: 'allow', overrideBrowserWindowOptions: { webPreferences: webPreferences(bridge) } }
      : { action: 'deny' },
  );
}

function secureSession(bridgeOrigin: string): void {
  const csp = buildCsp();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback(
      isBridgeUrl(details.url, bridgeOrigin)
        ? { responseHeaders: withCsp(details.responseHeaders, csp) }
        : {},
    );
  });
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionAllowed(permission, details.requestingUrl, bridgeOrigin)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin, bridgeOrigin),
  );
}

function showWindow(): void {
  if (!bridge) return;
  if (!mainWindow || mainWindow.isDestroyed()) {
    mainWindow = createWindow(bridge); // shows itself once rendered (ready-to-show)
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

function createWindow(running: RunningBridge): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Studio Bridge',
    icon: assetPath('icon.png'),
    webPreferences: webPreferences(running),
  });
  window.once('ready-to-show', () => window.show());
  // Windows logoff/shutdown closes windows without before-quit: let it.
  window.on('session-end', () => {
    quitting = true;
  });
  window.on('close', (event) => {
    if (quitting) return;
    event.preventDefault();
    window.hide();
  });
  window.loadURL(running.url).catch((error: unknown) => {
    console.error(`studio-bridge: could not load the dashboard from ${running.url}: ${String(error)}`);
  });
  return window;
}

function createTray(running: RunningBridge): Tray {
  const status = { url: running.url, sandbox: running.sandbox };
  const actions: Record<TrayAction, () => void> = {
    'open-dashboard': showWindow,
    'copy-api-key': () => clipboard.writeText(running.apiKey),
    quit: () => app.quit(),
  };
  const template = trayMenuModel(status).map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'status':
        return { label: item.label, enabled: false };
      case 'separator':
        return { type: 'separator' };
      case 'action':
        return { label: item.label, click: actions[item.action] };
    }
  });
  const icon = new Tray(nativeImage.createFromPath(assetPath('tray.png')));
  icon.setToolTip(trayTooltip(status));
  icon.setContextMenu(Menu.buildFromTemplate(template));
  icon.on('click', showWindow);
  return icon;
}

async function start(): Promise<void> {
  await app.whenReady();
  const secretStore = createSafeStorageSecretStore(safeStorage, {
    platform: process.platform,
    warn: (message) => console.warn(`studio-bridge: ${message}`),
  });
  try {
    const nativeBinding = resolveSqliteNativeBinding();
    bridge = await startBridge({ secretStore, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch (error) {
    const failure = describeStartupError(error);
    console.error(`${failure.title}\n${failure.detail}`);
    dialog.showErrorBox(failure.title, failure.detail);
    app.exit(failure.exitCode);
    return;
  }

  const running = bridge;
  const bridgeOrigin = originOf(running.url);
  if (bridgeOrigin === undefined) throw new Error(`bridge URL without an origin: ${running.url}`);
  secureSession(bridgeOrigin);
  app.on('web-contents-created', (_event, contents) => guardNavigation(contents, bridgeOrigin));
  ipcMain.on(API_KEY_CHANNEL, (event) => {
    event.returnValue = isBridgeUrl(event.senderFrame?.url ?? '', bridgeOrigin) ? running.apiKey : null;
  });

  tray = createTray(running);
  showWindow();
}

// Before anything else (the lock, the bridge): an app started without the bridge's V8 flags (the
// installed app, from the OS) starts again with them; js-flags.ts says why this cannot be done in place.
const relaunchArgs = relaunchArgsForJsFlags(process.argv.slice(1), process.env);
if (relaunchArgs !== undefined) {
  process.env[JS_FLAGS_RELAUNCH_MARKER] = '1';
  app.relaunch({ args: relaunchArgs });
  app.exit(0);
} else if (!app.requestSingleInstanceLock()) {
  // Another instance owns the bridge's port and database; it shows its window (second-instance).
  app.quit();
} else {
  app.on('second-instance', showWindow);
  app.on('activate', showWindow); // macOS: click on the dock icon
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('will-quit', (event) => {
    tray?.destroy();
    tray = undefined;
    if (!bridge) return;
    // Stop the bridge (finish in-flight requests, close the database), then quit for real.
    event.preventDefault();
    const stopping = bridge;
    bridge = undefined;
    stopping
      .stop()
      .catch((error: unknown) => console.error(`studio-bridge: error while stopping: ${String(error)}`))
      .finally(() => app.quit());
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  start().catch((error: unknown) => {
    console.error(`studio-bridge: ${String(error)}`);
    app.exit(1);
  });
}
