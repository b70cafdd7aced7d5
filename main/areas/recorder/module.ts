import { getRecorderFilename, setRecorderFilename } from '../../../shared/api/recorder.js';
import type { FeatureFactory } from '../../core.js';

export const recorderFeature: FeatureFactory = (core) => ({
  name: 'recorder',
  mountRoutes(mount) {
    mount(setRecorderFilename, ({ body }) => {
      const filename = core.recorder.set(body.filename);
      core.activity.record('recorder.filename', 'info', `next recording: ${filename}`, { filename });
      return { success: true, filename };
    });
    mount(getRecorderFilename, () => ({ success: true, ...core.recorder.get() }));
  },
});
