import {
  addRecorderMark,
  deleteRecorderMark,
  getRecorderFilename,
  getRecorderStatus,
  listRecorderTakes,
  nextProduction,
  renameRecorderMark,
  setRecorderFilename,
} from '../../../shared/api/recorder.js';
import type { AreaContext, Mount } from '../area.js';
import { AppError } from '../../kernel/app-error.js';
import { markEdits } from './mark-edits.js';
import { nextProduction as readNextProduction } from './next-production.js';
import type { Recorder } from './recorder.js';
import type { RecorderRepo } from './repo.js';

export function recorderRoutes(
  mount: Mount,
  recorder: Recorder,
  repo: RecorderRepo,
  ctx: Pick<AreaContext, 'peers' | 'now' | 'activity'>,
): void {
  const marks = markEdits(repo, ctx.activity);
  mount(setRecorderFilename, async ({ body }) => ({
    success: true,
    ...(await recorder.setFilename(body.filename, body.contentProductionId ?? null)),
  }));
  mount(getRecorderFilename, () => ({ success: true, ...recorder.filename() }));
  mount(getRecorderStatus, () => ({ success: true, ...recorder.status() }));
  mount(listRecorderTakes, ({ query }) => ({
    success: true,
    takes: repo.takes(query.limit),
    looseMarks: repo.looseMarks(query.limit),
  }));
  mount(addRecorderMark, async ({ body }) => ({
    success: true,
    ...(await recorder.mark(body.label ? body.label : null)),
  }));
  mount(renameRecorderMark, ({ params, body }) => ({
    success: true,
    mark: marks.rename(params.markId, body.label, body.previousLabel),
  }));
  mount(deleteRecorderMark, ({ params }) => ({ success: true, deleted: marks.remove(params.markId) }));
  mount(nextProduction, async () => {
    const crm = ctx.peers.crm;
    if (!crm) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
    return { success: true, ...(await readNextProduction(crm, ctx.now())) };
  });
}
