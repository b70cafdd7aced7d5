import { getRecorderFilename, setRecorderFilename } from '../../../shared/api/recorder.js';
import type { AreaContext, Mount } from '../area.js';
import type { RecorderState } from './recorder-state.js';

export function recorderRoutes(mount: Mount, state: RecorderState, ctx: Pick<AreaContext, 'activity'>): void {
  mount(setRecorderFilename, ({ body }) => {
    const filename = state.set(body.filename);
    ctx.activity.record('recorder.filename', 'info', `next recording: ${filename}`, { filename });
    return { success: true, filename };
  });
  mount(getRecorderFilename, () => ({ success: true, ...state.get() }));
}
