/**
 * The sentence the dashboard shows when the held name is gone (DESIGN §6.7: memory only, cleared
 * at a restart), with the name OBS will use when a recorder told it. One wording for every panel
 * that shows it (the recorder panel, the live panel): "cleared when the bridge restarted at <time>".
 * `time` comes formatted for the reader (the dashboard's local time).
 */
export function clearedLine(time: string, obsFilename: string | null, now = new Date()): string {
  const cleared = `cleared when the bridge restarted at ${time}`;
  return obsFilename === null ? cleared : `${cleared}; OBS will use ${obsNameWords(obsFilename, now)}`;
}

/** OBS's filename formatting specifiers (its "Filename Formatting" setting) and what each becomes. */
const obsSpecifiers: Record<string, (at: Date) => string> = {
  CCYY: (at) => String(at.getFullYear()),
  YY: (at) => String(at.getFullYear() % 100).padStart(2, '0'),
  MM: (at) => String(at.getMonth() + 1).padStart(2, '0'),
  DD: (at) => String(at.getDate()).padStart(2, '0'),
  hh: (at) => String(at.getHours()).padStart(2, '0'),
  mm: (at) => String(at.getMinutes()).padStart(2, '0'),
  ss: (at) => String(at.getSeconds()).padStart(2, '0'),
};

/**
 * The name OBS will use, as words (issue #40.4): a format of its own ("%CCYY-%MM-%DD %hh-%mm-%ss")
 * is "its own date-and-time name" with the name it gives now; a plain name stays as it is.
 */
export function obsNameWords(obsFilename: string, now = new Date()): string {
  if (!/%(CCYY|YY|MM|DD|hh|mm|ss)/.test(obsFilename)) return obsFilename;
  const example = obsFilename.replace(/%(CCYY|YY|MM|DD|hh|mm|ss)/g, (_, spec: string) =>
    (obsSpecifiers[spec] ?? (() => spec))(now),
  );
  return `its own date-and-time name (like ${example})`;
}
