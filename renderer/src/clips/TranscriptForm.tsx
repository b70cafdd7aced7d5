import { useId, useRef, useState } from 'react';
import type { DragEvent, FormEvent } from 'react';
import { DEFAULT_MAX_CLIPS, MAX_CLIPS, MAX_TRANSCRIPT_CHARS } from '../../../shared/api/clips.js';
import { errorMessage } from '../api/transport/client.js';
import { Panel } from '../components/Panel.js';
import { Spinner } from '../components/States.js';
import type { AnalyzeInput } from './api.js';
import { ContentPicker } from './ContentPicker.js';
import { useKeptState } from './kept-state.js';
import { TakePicker } from './TakePicker.js';
import { readTranscriptFile, summarise, TRANSCRIPT_FILE_TYPES } from './transcript.js';

const numberFormat = new Intl.NumberFormat('en-US');

/** Paste or drop a transcript, pick its content record, choose how many clips. */
export function TranscriptForm({
  pending,
  onAnalyze,
}: {
  pending: boolean;
  onAnalyze: (body: AnalyzeInput) => void;
}) {
  const [contentId, setContentId] = useKeptState('contentId', '');
  const [takeId, setTakeId] = useKeptState<number | null>('takeId', null);
  const [transcript, setTranscript] = useKeptState('transcript', '');
  const [fileName, setFileName] = useKeptState<string | null>('fileName', null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [maxClips, setMaxClips] = useKeptState('maxClips', String(DEFAULT_MAX_CLIPS));
  const [dragging, setDragging] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { transcript: useId(), max: useId(), help: useId() };

  const summary = summarise(transcript);
  const count = Number(maxClips);
  const problems = {
    content: contentId.trim() === '' ? 'Pick the content record the transcript belongs to.' : undefined,
    transcript:
      transcript.trim() === ''
        ? 'Paste a transcript or drop a file here.'
        : summary.tooLong
          ? `${numberFormat.format(summary.characters)} characters: the limit is ${numberFormat.format(MAX_TRANSCRIPT_CHARS)}.`
          : undefined,
    maxClips:
      Number.isInteger(count) && count >= 1 && count <= MAX_CLIPS
        ? undefined
        : `A whole number from 1 to ${MAX_CLIPS}.`,
  };
  const valid = !problems.content && !problems.transcript && !problems.maxClips;
  const show = (problem: string | undefined) => (submitted ? problem : undefined);

  async function load(file: File | undefined) {
    if (!file) return;
    setFileError(null);
    try {
      setTranscript(await readTranscriptFile(file));
      setFileName(file.name);
    } catch (error) {
      setFileError(errorMessage(error));
    }
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    void load(event.dataTransfer.files[0]);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (!valid) return;
    onAnalyze({
      contentProductionId: contentId.trim(),
      transcript,
      maxClips: count,
      ...(takeId === null ? {} : { takeId }),
    });
  }

  return (
    <Panel title="Transcript" testId="clips-form">
      <form className="cl-form" onSubmit={submit} noValidate aria-label="Transcript to analyse">
        <ContentPicker value={contentId} onChange={setContentId} problem={show(problems.content)} />
        <TakePicker value={takeId} onChange={setTakeId} />

        <div className="cl-field">
          <div className="cl-label-row">
            <label className="field-label" htmlFor={ids.transcript}>
              Transcript
            </label>
            <button type="button" className="link-button small" onClick={() => fileInput.current?.click()}>
              Open a file…
            </button>
            <input
              ref={fileInput}
              type="file"
              accept={TRANSCRIPT_FILE_TYPES}
              className="visually-hidden"
              tabIndex={-1}
              aria-label="Transcript file"
              onChange={(e) => {
                void load(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </div>
          <div
            className={`cl-drop${dragging ? ' cl-drop-active' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={drop}
            data-testid="clips-drop"
          >
            <textarea
              id={ids.transcript}
              className="input mono cl-transcript"
              rows={12}
              value={transcript}
              spellCheck={false}
              placeholder={
                'Paste the transcript, or drop a .txt, .srt or .vtt file here.\n\n[00:01:05] HOST: So where did it start?\n[00:01:09] GUEST: In my uncle’s clinic…'
              }
              onChange={(e) => {
                setTranscript(e.target.value);
                setFileName(null);
              }}
              aria-invalid={show(problems.transcript) !== undefined}
              aria-describedby={ids.help}
            />
            {dragging ? <div className="cl-drop-hint">Drop the transcript file</div> : null}
          </div>
          <p id={ids.help} className="cl-help small muted" data-testid="clips-transcript-summary">
            {transcript.trim() === '' ? (
              'Plain text, SRT, WebVTT or [hh:mm:ss] lines. Analysed on the bridge, offline.'
            ) : (
              <>
                {fileName ? <span className="mono">{fileName} · </span> : null}
                about {numberFormat.format(summary.words)} words · {summary.kind}
                {summary.estimated ? ' (no time stamps: times estimated at 150 words per minute)' : ''}
              </>
            )}
          </p>
          {fileError ? (
            <p className="field-error" role="alert">
              {fileError}
            </p>
          ) : null}
          {show(problems.transcript) ? (
            <p className="field-error" role="alert">
              {problems.transcript}
            </p>
          ) : null}
        </div>

        <div className="cl-row">
          <div className="cl-field cl-field-narrow">
            <label className="field-label" htmlFor={ids.max}>
              Clips
            </label>
            <input
              id={ids.max}
              className="input"
              type="number"
              min={1}
              max={MAX_CLIPS}
              step={1}
              value={maxClips}
              onChange={(e) => setMaxClips(e.target.value)}
              aria-invalid={problems.maxClips !== undefined}
            />
          </div>
          <button type="submit" className="button button-primary cl-submit" disabled={pending}>
            {pending ? <Spinner label="Analysing…" /> : 'Suggest clips'}
          </button>
        </div>
        {problems.maxClips ? (
          <p className="field-error" role="alert">
            {problems.maxClips}
          </p>
        ) : null}
      </form>
    </Panel>
  );
}
