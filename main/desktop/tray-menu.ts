/** What the tray shows (DESIGN §9). Pure: main.ts turns it into an Electron menu. */
export type TrayAction = 'open-dashboard' | 'copy-api-key' | 'quit';

export type TrayMenuItem =
  | { kind: 'status'; label: string }
  | { kind: 'separator' }
  | { kind: 'action'; label: string; action: TrayAction };

export interface TrayStatus {
  url: string;
  sandbox: boolean;
}

export function trayMenuModel(status: TrayStatus): TrayMenuItem[] {
  return [
    { kind: 'status', label: `Bridge: ${status.url}` },
    { kind: 'status', label: `Sandbox: ${status.sandbox ? 'yes' : 'no'}` },
    { kind: 'separator' },
    { kind: 'action', label: 'Open dashboard', action: 'open-dashboard' },
    { kind: 'action', label: 'Copy API key', action: 'copy-api-key' },
    { kind: 'separator' },
    { kind: 'action', label: 'Quit', action: 'quit' },
  ];
}

export function trayTooltip(status: TrayStatus): string {
  return `Studio Bridge: ${status.url}${status.sandbox ? ' (sandbox)' : ''}`;
}
