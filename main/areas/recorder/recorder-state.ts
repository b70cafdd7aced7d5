import { checkRecorderFilename } from '../../../shared/recorder-filename.js';
import { AppError } from '../../kernel/app-error.js';
import type { ClearedName } from './cleared-at-restart.js';

/** The recording device's next filename: memory only, as the spec says (DESIGN §6.7). */
export class RecorderState {
  private current: { filename: string; setAt: string } | null = null;

  constructor(
    private readonly now: () => Date = () => new Date(),
    /** The name a restart cleared, said until a new one is set (DESIGN §6.7). */
    private readonly cleared: ClearedName | null = null,
  ) {}

  set(filename: string): string {
    const check = checkRecorderFilename(filename, this.now());
    if (!check.ok) {
      throw AppError.validation(`filename: ${check.rule}`, {
        field: 'filename',
        rule: check.rule,
        suggestion: check.suggestion,
      });
    }
    this.current = { filename, setAt: this.now().toISOString() };
    return filename;
  }

  get(): { filename: string | null; setAt: string | null; clearedByRestart: ClearedName | null } {
    if (this.current) return { ...this.current, clearedByRestart: null };
    return { filename: null, setAt: null, clearedByRestart: this.cleared };
  }
}
