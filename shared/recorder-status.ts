/**
 * The sentence the dashboard shows when the held name is gone (DESIGN §6.7: memory only, cleared
 * at a restart), with the name OBS will use when a recorder told it. One wording for every panel
 * that shows it (the recorder panel, the live panel): "cleared when the bridge restarted at <time>".
 * `time` comes formatted for the reader (the dashboard's local time).
 */
export function clearedLine(time: string, obsFilename: string | null): string {
  const cleared = `cleared when the bridge restarted at ${time}`;
  return obsFilename === null ? cleared : `${cleared}; OBS will use ${obsFilename}`;
}
