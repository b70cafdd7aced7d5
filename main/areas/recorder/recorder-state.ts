import type { FilenameState, RecorderFilenameStatus } from '../../../shared/api/recorder.js';
import type { ClearedName } from './cleared-at-restart.js';

interface Held {
  filename: string;
  requested: string;
  setAt: string;
  /** The production the name was given from (issue #42.2); null: none said. */
  contentProductionId: string | null;
}

/**
 * The next recording's filename: memory only, as the spec says (DESIGN §6.7), and where it
 * stands with the recorder. Gone after a restart: then `clearedAt` says since when.
 */
export class RecorderState {
  private held: Held | null = null;
  private state: FilenameState | null = null;
  private failure: string | null = null;
  private obsFilename: string | null = null;

  constructor(
    private readonly startedAt: string,
    /** The name a restart cleared, said until a new one is set (DESIGN §6.7). */
    private readonly cleared: ClearedName | null = null,
  ) {}

  hold(
    filename: string,
    requested: string,
    setAt: string,
    state: FilenameState,
    contentProductionId: string | null = this.held?.requested === requested
      ? this.held.contentProductionId
      : null,
  ): void {
    this.held = { filename, requested, setAt, contentProductionId };
    this.mark(state);
  }

  /** The outcome of applying the held name (or of not being able to). */
  mark(state: FilenameState, failure: string | null = null): void {
    this.state = this.held ? state : null;
    this.failure = state === 'failed' ? failure : null;
  }

  /** What OBS said it holds, read back from it. */
  sawObs(filename: string | null): void {
    this.obsFilename = filename;
  }

  get current(): Held | null {
    return this.held;
  }

  get obs(): string | null {
    return this.obsFilename;
  }

  status(): Omit<RecorderFilenameStatus, 'success'> {
    return {
      filename: this.held?.filename ?? null,
      requested: this.held?.requested ?? null,
      setAt: this.held?.setAt ?? null,
      contentProductionId: this.held?.contentProductionId ?? null,
      state: this.state,
      failure: this.failure,
      obsFilename: this.obsFilename,
      clearedAt: this.held ? null : this.startedAt,
      clearedByRestart: this.held ? null : this.cleared,
    };
  }
}
