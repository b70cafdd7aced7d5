import type { CompanionPresetDefinitions, CompanionPresetSection } from '@companion-module/base';
import { NEXT_POST, ON_AIR } from './actions.js';
import { AMBER, BLACK, GREEN, RED, WHITE } from './feedbacks.js';
import type { ModuleSchema } from './main.js';

const GREY = 0x262626;
const DARK_RED = 0x4a0000;

type Preset = NonNullable<CompanionPresetDefinitions<ModuleSchema>[string]>;

/**
 * The 15-key page (a Stream Deck MK.2 / Companion's 5×3): recorder on the top row, broadcast
 * and the bridge's health in the middle, posts and analytics at the bottom. In key order.
 * Sizes are explicit: Companion's 'auto' takes the largest size whose lines fit the key's height,
 * even when that cuts a word ("MAR" / "K"); each text is checked against its 72-px keys
 * (test/unit/companion/presets.test.ts).
 */
export function presets(label: string): {
  structure: CompanionPresetSection<ModuleSchema>[];
  definitions: CompanionPresetDefinitions<ModuleSchema>;
} {
  const v = (id: string) => `$(${label}:${id})`;
  const style = (text: string, bgcolor = GREY, size: Preset['style']['size'] = 'auto') => ({
    text,
    size,
    color: WHITE,
    bgcolor,
  });
  const press = (actionId: Preset['steps'][number]['down'][number]) => [{ down: [actionId], up: [] }];

  const page: Record<string, Preset> = {
    recorder_name: {
      type: 'simple',
      name: 'Name from the next production',
      style: style(`NAME\\n${v('next_filename')}`, GREY, '7'),
      steps: press({ actionId: 'filename_from_next_production', options: {} }),
      feedbacks: [
        { feedbackId: 'recorder_state', options: { state: 'applied' }, style: { bgcolor: GREEN } },
        {
          feedbackId: 'recorder_state',
          options: { state: 'pending' },
          style: { bgcolor: AMBER, color: BLACK },
        },
        { feedbackId: 'recorder_state', options: { state: 'failed' }, style: { bgcolor: RED } },
      ],
    },
    recorder_take: {
      type: 'simple',
      name: 'Take number',
      style: style(`TAKE\\n${v('take_number')}`, GREY, '18'),
      steps: [],
      feedbacks: [{ feedbackId: 'recording', options: {}, style: { bgcolor: RED } }],
    },
    recorder_mark: {
      type: 'simple',
      name: 'Add mark',
      style: style('MARK', GREY, '18'),
      steps: press({ actionId: 'add_mark', options: { label: '' } }),
      feedbacks: [{ feedbackId: 'recording', options: {}, style: { bgcolor: DARK_RED } }],
    },
    recorder_last_take: {
      type: 'simple',
      name: 'Last take file',
      style: style(`LAST\\n${v('last_take_file')}`, GREY, '7'),
      steps: [],
      feedbacks: [],
    },
    recorder_state: {
      type: 'simple',
      name: 'Recorder state',
      style: style('REC\\nidle', GREY, '14'),
      steps: [],
      feedbacks: [
        { feedbackId: 'recording', options: {}, style: { bgcolor: RED, text: 'REC\\n● rec' } },
        {
          feedbackId: 'peer_down',
          options: { peer: 'recorder' },
          style: { bgcolor: AMBER, color: BLACK, text: 'REC\\noffline' },
        },
      ],
    },
    on_air: {
      type: 'simple',
      name: 'ON AIR',
      style: style(`OFF AIR\\n${v('on_air_name')}`, GREY, '7'),
      steps: [],
      feedbacks: [
        { feedbackId: 'on_air', options: {}, style: { bgcolor: RED, text: `ON AIR\\n${v('on_air_name')}` } },
      ],
    },
    viewers: {
      type: 'simple',
      name: 'Viewers',
      style: style(`VIEWERS\\n${v('on_air_viewers')}`, GREY, '14'),
      steps: [],
      feedbacks: [{ feedbackId: 'on_air', options: {}, style: { bgcolor: DARK_RED } }],
    },
    end_broadcast: {
      type: 'simple',
      name: 'End broadcast (press twice)',
      style: style('END\\nbroadcast', DARK_RED, '14'),
      steps: press({ actionId: 'end_broadcast', options: { broadcast: ON_AIR } }),
      feedbacks: [
        {
          feedbackId: 'armed',
          options: { action: 'end_broadcast' },
          style: { bgcolor: AMBER, color: BLACK, text: 'PRESS\\nAGAIN\\nto end' },
        },
      ],
    },
    peers: {
      type: 'simple',
      name: 'Peers',
      style: style('PEERS\\nOK', GREY, '14'),
      steps: [],
      feedbacks: [
        {
          feedbackId: 'peer_down',
          options: { peer: 'any' },
          style: { bgcolor: AMBER, color: BLACK, text: 'PEER\\nDOWN' },
        },
      ],
    },
    guest_held: {
      type: 'simple',
      name: 'Guest held',
      style: style('GUESTS\\nOK', GREY, '14'),
      steps: [],
      feedbacks: [
        {
          feedbackId: 'guest_held',
          options: {},
          style: { bgcolor: AMBER, color: BLACK, text: 'GUEST\\nHELD' },
        },
      ],
    },
    next_post_time: {
      type: 'simple',
      name: 'Next post time',
      style: style(`NEXT POST\\n${v('next_post_time')}`, GREY, 11),
      steps: [],
      feedbacks: [],
    },
    next_post_text: {
      type: 'simple',
      name: 'Next post text',
      style: style(v('next_post_text'), GREY, '7'),
      steps: [],
      feedbacks: [],
    },
    post_now: {
      type: 'simple',
      name: 'Post now (press twice)',
      style: style('POST\\nNOW', DARK_RED, '14'),
      steps: press({ actionId: 'post_now', options: { post: NEXT_POST } }),
      feedbacks: [
        {
          feedbackId: 'armed',
          options: { action: 'post_now' },
          style: { bgcolor: AMBER, color: BLACK, text: 'PRESS\\nAGAIN\\nto post' },
        },
      ],
    },
    posts_left: {
      type: 'simple',
      name: 'Posts left today',
      style: style(`LEFT\\n${v('posts_left_today')}`, GREY, '14'),
      steps: [],
      feedbacks: [
        {
          feedbackId: 'failed_posts',
          options: {},
          style: { bgcolor: RED, text: `FAILED\\nposts\\nleft ${v('posts_left_today')}` },
        },
      ],
    },
    collect: {
      type: 'simple',
      name: 'Run collection now',
      style: style('COLLECT\\nstats', GREY, '14'),
      steps: press({ actionId: 'run_collection', options: {} }),
      feedbacks: [],
    },
  };
  return {
    structure: [
      {
        id: 'page',
        name: 'Studio Bridge: the 15-key page',
        description: 'Recorder, broadcast and health, posts; in key order (5 × 3).',
        definitions: Object.keys(page),
      },
    ],
    definitions: page,
  };
}
