/** Where the next recording's name stands while the bridge holds none (DESIGN §6.7: memory only). */
export interface NoNameHeld {
  /** The name a restart cleared (from the activity log); null when none was set before it. */
  cleared: string | null;
  /** When the bridge (re)started, formatted for the reader (the dashboard's local time). */
  time: string;
  /** The name OBS will use, as read back from it; null: no recorder, or not read yet. */
  obsFilename: string | null;
  /** A recorder (OBS) is configured. */
  recorder: boolean;
}

/**
 * One sentence for the dashboard when the bridge holds no name (issue #41.2): whether the next
 * recording will be named right, and what to do when not. `ok` false: the operator must act.
 */
export function noNameLine(state: NoNameHeld, now = new Date()): { ok: boolean; sentence: string } {
  const { cleared, time, obsFilename, recorder } = state;
  if (!recorder) {
    return cleared === null
      ? { ok: true, sentence: `No filename is set since the bridge started at ${time}.` }
      : {
          ok: false,
          sentence: `No filename is held for the device: ${cleared} was cleared when the bridge restarted at ${time}; set it again before the next recording.`,
        };
  }
  if (obsFilename === null) {
    return {
      ok: false,
      sentence:
        cleared === null
          ? `OBS has not said which name it will use, and none is set since the bridge started at ${time}: set one before recording.`
          : `The next recording may not be named ${cleared}: the bridge forgot it when it restarted at ${time} and OBS has not said which name it holds; set it again before recording.`,
    };
  }
  if (cleared === null) {
    return {
      ok: true,
      sentence: `The next recording ${willBeNamed(obsFilename, now)}, OBS's own setting: no name was set since the bridge started at ${time}.`,
    };
  }
  if (obsFilename === cleared) {
    return {
      ok: true,
      sentence: `The next recording will be named ${cleared}: OBS kept it when the bridge restarted at ${time}.`,
    };
  }
  return {
    ok: false,
    sentence: `The next recording ${willBeNamed(obsFilename, now)}, not ${cleared}, which the bridge forgot when it restarted at ${time}: set it again before recording.`,
  };
}

/** "will be named ep42", or for OBS's own dated format "will get OBS's own date-and-time name (like …)". */
function willBeNamed(obsFilename: string, now: Date): string {
  const words = obsNameWords(obsFilename, now);
  return words === obsFilename ? `will be named ${words}` : `will get OBS's ${words.replace(/^its /, '')}`;
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
