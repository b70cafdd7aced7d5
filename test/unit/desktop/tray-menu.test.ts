import { describe, expect, it } from 'vitest';
import { trayMenuModel, trayTooltip } from '../../../main/desktop/tray-menu.js';

describe('trayMenuModel', () => {
  it('shows the status, then the actions, Quit last', () => {
    expect(trayMenuModel({ url: 'http://127.0.0.1:4100', sandbox: true })).toEqual([
      { kind: 'status', label: 'Bridge: http://127.0.0.1:4100' },
      { kind: 'status', label: 'Sandbox: yes' },
      { kind: 'separator' },
      { kind: 'action', label: 'Open dashboard', action: 'open-dashboard' },
      { kind: 'action', label: 'Copy API key', action: 'copy-api-key' },
      { kind: 'separator' },
      { kind: 'action', label: 'Quit', action: 'quit' },
    ]);
  });

  it('says when the real peers are in use', () => {
    expect(trayMenuModel({ url: 'http://192.168.1.20:4100', sandbox: false })[1]).toEqual({
      kind: 'status',
      label: 'Sandbox: no',
    });
  });

  it('tooltip: the URL, and the sandbox when on', () => {
    const status = { url: 'http://127.0.0.1:4100', sandbox: false };
    expect(trayTooltip(status)).toBe('Studio Bridge: http://127.0.0.1:4100');
    expect(trayTooltip({ ...status, sandbox: true })).toBe('Studio Bridge: http://127.0.0.1:4100 (sandbox)');
  });
});
