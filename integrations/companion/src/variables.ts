import type { CompanionVariableDefinitions } from '@companion-module/base';
import { formatPostTime, nextPost, onAir, takeNumber, type Snapshot } from './snapshot.js';

/** The module's variables, `$(<connection label>:<id>)` in Companion. */
export type VariablesSchema = {
  next_filename: string;
  take_number: number | '';
  last_take_file: string;
  on_air_name: string;
  on_air_viewers: number | '';
  next_post_time: string;
  next_post_text: string;
  posts_left_today: number | '';
};

export const variableDefinitions: CompanionVariableDefinitions<VariablesSchema> = {
  next_filename: { name: 'Next recording filename (as the recorder will use it, take suffix included)' },
  take_number: { name: 'Take number of the next recording (1, then 2 for _T02…)' },
  last_take_file: { name: 'File name of the last take the recorder wrote (without its folder)' },
  on_air_name: { name: 'On-air broadcast name (empty when nothing is live)' },
  on_air_viewers: { name: 'On-air broadcast viewers' },
  next_post_time: { name: 'Next scheduled post: time (HH:MM today, else "27 Nov 14:30")' },
  next_post_text: { name: 'Next scheduled post: text' },
  posts_left_today: { name: 'Posts left today (daily quota)' },
};

/** Every variable's value from what is known; unknown reads as empty. */
export function variableValues(snapshot: Snapshot, now: Date): VariablesSchema {
  const live = onAir(snapshot);
  const post = nextPost(snapshot, now);
  const lastTake = snapshot.takes?.find((take) => take.filePath !== null);
  return {
    next_filename: snapshot.recorder?.filename ?? '',
    take_number: takeNumber(snapshot.recorder) ?? '',
    last_take_file: lastTake?.filePath ? fileNameOf(lastTake.filePath) : '',
    on_air_name: live?.name ?? '',
    on_air_viewers: live ? live.viewerCount : '',
    next_post_time: post?.publishAt ? formatPostTime(post.publishAt, now) : '',
    next_post_text: post?.post ?? '',
    posts_left_today: snapshot.postsLeft ?? '',
  };
}

/** The file's name without its folder, whichever system the recorder runs on (/ or \\). */
export function fileNameOf(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}
