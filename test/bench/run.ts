import { postingBench } from './posting.js';
import { analyticsBench } from './analytics.js';
import { clipsBench } from './clips.js';
import { editorBench } from './editor.js';
import { formatResults, type Bench } from './report.js';
import { webhookBench } from './webhook.js';
import { startBench } from './start.js';
import { dashboardBench } from './dashboard.js';
import { batchBench } from './batch.js';
import { eventReadersBench } from './event-readers.js';
import { slowBodiesBench } from './slow-bodies.js';
import { hostSpeed } from './host-speed.js';
import { recorderBench } from './recorder.js';
import { companionBench } from './companion.js';
import { calendarBench } from './calendar.js';
import { hopsBench } from './hops.js';
import { postingRaceBench } from './posting-race.js';
import { renderBench } from './render.js';
import { activityTextBench } from './activity-text.js';
import { productionsBench } from './productions.js';

/**
 * `npm run bench [name...]`: every benchmark, or those named. Ratios compare the bridge with a
 * bare Express handler measured in the same run on the same machine, never absolute times.
 */
const benches: Bench[] = [
  webhookBench,
  batchBench,
  postingBench,
  postingRaceBench,
  hopsBench,
  analyticsBench,
  clipsBench,
  editorBench,
  startBench,
  dashboardBench,
  recorderBench,
  calendarBench,
  eventReadersBench,
  slowBodiesBench,
  companionBench,
  renderBench,
  activityTextBench,
  productionsBench,
];

const wanted = process.argv.slice(2);
process.stdout.write(`${formatResults([hostSpeed('before the benches')])}\n`);
for (const bench of benches) {
  if (wanted.length > 0 && !wanted.includes(bench.name)) continue;
  process.stdout.write(`\n== ${bench.name}\n`);
  const results = await bench.run();
  process.stdout.write(`${formatResults(results)}\n`);
}
process.stdout.write(`\n${formatResults([hostSpeed('after the benches')])}\n`);
