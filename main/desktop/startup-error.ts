/** How the desktop app reports a bridge that failed to start. Pure: no Electron imports. */
export interface StartupFailure {
  title: string;
  detail: string;
  /** 2 for invalid configuration, a database from a newer release or an unsafe data dir (as the CLI), else 1. */
  exitCode: number;
}

export function describeStartupError(error: unknown): StartupFailure {
  if (!(error instanceof Error))
    return { title: 'Studio Bridge could not start', detail: String(error), exitCode: 1 };
  // Duck-typed rather than `instanceof ConfigError`: the message is all the window needs from config.ts.
  if (error.name === 'ConfigError' && 'issues' in error && Array.isArray(error.issues)) {
    return { title: 'Studio Bridge: invalid configuration', detail: error.issues.join('\n'), exitCode: 2 };
  }
  // Another bridge (e.g. `studio-bridge serve`) holds the data dir (DESIGN §7): the CLI's line, and the way out.
  if (error.name === 'DataDirInUseError' && 'lockPath' in error) {
    return {
      title: 'Studio Bridge: the data dir is in use',
      detail:
        `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.\n` +
        `If no bridge is running (its process id was reused after a crash), delete ${String(error.lockPath)}.`,
      exitCode: 1,
    };
  }
  // What the CLI prints in one line and exits 2 for (issues #35.2, #35.5): the line says what to do.
  if (error.name === 'DatabaseTooNewError') {
    return {
      title: 'Studio Bridge: the database is from a newer release',
      detail: error.message,
      exitCode: 2,
    };
  }
  if (error.name === 'DataDirEntryError') {
    return { title: 'Studio Bridge: the data dir is not safe to use', detail: error.message, exitCode: 2 };
  }
  if ('code' in error && error.code === 'EADDRINUSE') {
    return {
      title: 'Studio Bridge: port in use',
      detail: `${error.message}\nAnother bridge may be running on it; otherwise set another BRIDGE_PORT.`,
      exitCode: 1,
    };
  }
  return { title: 'Studio Bridge could not start', detail: error.message, exitCode: 1 };
}
