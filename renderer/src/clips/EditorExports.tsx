import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  edlFrameRates,
  getAnalysisEdl,
  getAnalysisExports,
  getAnalysisOtio,
  getAnalysisXml,
  getTimelineSrt,
  getTimelineVtt,
  type AnalysisExports,
  type EdlFrameRate,
} from '../../../shared/api/clips.js';
import { callApi, errorMessage } from '../api/transport/client.js';
import { audioWords } from '../recorder/take-words.js';
import type { Analysis } from './api.js';
import { ExportButton } from './ExportButton.js';

const dropFrame = (rate: EdlFrameRate) => rate === '29.97' || rate === '59.94';
const sourceWords: Record<AnalysisExports['fps']['source'], string> = {
  take: 'the take’s own rate',
  request: 'as chosen',
  default: 'the default (the take’s rate is not known)',
};

/**
 * The editor's exports of an analysis (issue #39): the frame rate (the take's own unless another is
 * chosen; the line below says which is used), events by rank or as recorded, speaker labels, and
 * the EDL, OTIO, FCP7 XML and the whole timeline's captions, with what the bridge warns of.
 */
export function EditorExports({ analysis }: { analysis: Analysis }) {
  const [fps, setFps] = useState<EdlFrameRate | ''>('');
  const [order, setOrder] = useState<'rank' | 'source'>('rank');
  const [speakers, setSpeakers] = useState<'on' | 'off'>('on');
  const options = { ...(fps ? { fps } : {}), order, speakers };
  const summary = useQuery({
    queryKey: ['clips', 'exports', analysis.analysisId, options],
    queryFn: ({ signal }) =>
      callApi(getAnalysisExports, { params: { analysisId: analysis.analysisId }, query: options, signal }),
  });
  const answer = summary.data;
  const params = { analysisId: analysis.analysisId };
  const timelineQuery: Record<string, string> = { ...(fps ? { fps } : {}), order };
  const takeRate = answer?.fps.take ?? null;
  // The analysis's own warnings are shown below it already.
  const warnings = answer?.warnings.filter((warning) => !analysis.warnings.includes(warning)) ?? [];
  return (
    <div className="cl-exports" data-testid="clips-exports">
      <p className="cl-exports-take small muted">
        {analysis.take ? (
          <>
            Take <span className="mono">{analysis.take.fileName}</span> ·{' '}
          </>
        ) : null}
        {answer ? (
          <>
            Reel <span className="mono">{answer.reel}</span> · {answer.audio.code}{' '}
            {answer.audio.channels > 0
              ? `(${audioWords(answer.audio.channels)}${answer.audio.assumed ? ', assumed' : ''})`
              : '(no audio)'}{' '}
            ·{' '}
          </>
        ) : null}
        Kept until {new Date(analysis.expiresAt).toLocaleDateString()}
      </p>
      <div className="cl-exports-options">
        <label className="cl-fps small">
          <span className="muted">Frame rate</span>
          <select
            className="input cl-fps-select"
            value={fps}
            onChange={(e) => setFps(edlFrameRates.find((rate) => rate === e.target.value) ?? '')}
            aria-label="EDL frame rate"
          >
            <option value="">Take’s rate{takeRate ? ` (${takeRate} fps)` : ''}</option>
            {edlFrameRates.map((rate) => (
              <option key={rate} value={rate}>
                {rate} fps{dropFrame(rate) ? ' (drop-frame)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="cl-fps small">
          <span className="muted">Events</span>
          <select
            className="input cl-fps-select"
            value={order}
            onChange={(e) => setOrder(e.target.value === 'source' ? 'source' : 'rank')}
            aria-label="Event order"
          >
            <option value="rank">By rank</option>
            <option value="source">As recorded</option>
          </select>
        </label>
        <label className="bc-toggle small">
          <input
            type="checkbox"
            checked={speakers === 'on'}
            onChange={(e) => setSpeakers(e.target.checked ? 'on' : 'off')}
          />
          <span>Speaker labels</span>
        </label>
      </div>
      <p className="small" data-testid="clips-fps-used">
        {answer
          ? `Timecodes at ${answer.fps.used} fps${dropFrame(answer.fps.used) ? ' (drop-frame)' : ''}, ${sourceWords[answer.fps.source]}`
          : summary.isError
            ? `Couldn't read the exports: ${errorMessage(summary.error)}`
            : 'Reading the take’s frame rate…'}
      </p>
      <div className="cl-exports-buttons">
        <ExportButton
          contract={getAnalysisEdl}
          params={params}
          query={timelineQuery}
          label="EDL"
          title="All suggestions as a CMX3600 edit decision list (reel, timecode, audio, marks)"
        />
        <ExportButton
          contract={getAnalysisOtio}
          params={params}
          query={timelineQuery}
          label="OTIO"
          title="OpenTimelineIO timeline with the take's file path"
        />
        <ExportButton
          contract={getAnalysisXml}
          params={params}
          query={timelineQuery}
          label="FCP7 XML"
          title="Final Cut Pro 7 XML for Premiere Pro and DaVinci Resolve"
        />
        <ExportButton
          contract={getTimelineSrt}
          params={params}
          query={{ ...timelineQuery, speakers }}
          label="Captions SRT"
          title="Captions of the whole timeline, from 01:00:00:00"
        />
        <ExportButton
          contract={getTimelineVtt}
          params={params}
          query={{ ...timelineQuery, speakers }}
          label="Captions WebVTT"
          title="Captions of the whole timeline, from 01:00:00:00"
        />
      </div>
      {answer && answer.captions.timeline.overCps > 0 ? (
        <p className="small muted">
          {answer.captions.timeline.overCps} of {answer.captions.timeline.cues} captions are faster than 20
          characters a second: the speech leaves no room to show them longer.
        </p>
      ) : null}
      {warnings.length > 0 ? (
        <div className="banner banner-warn cl-exports-warnings" role="status">
          <ul>
            {warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
