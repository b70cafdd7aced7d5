import { useSearchParams } from '../hash-router.js';
import { useAnalysisAsLeft, useAnalyzeClips } from './api.js';
import type { AnalyzeInput } from './api.js';
import { useKeptState } from './kept-state.js';
import { RecentAnalyses } from './RecentAnalyses.js';
import { Suggestions } from './Suggestions.js';
import { TranscriptForm } from './TranscriptForm.js';
import { PageHeader } from '../components/PageHeader.js';
import './clips.css';

/**
 * The clip studio. The analysis on show is in the address (`?analysis=`) and kept for the tab, so
 * leaving the page and coming back finds it as it was left (issue #44.3), its reviews and drafts
 * read back from the bridge.
 */
export function ClipsPage() {
  const analyze = useAnalyzeClips();
  const [params, setParams] = useSearchParams();
  const [lastOpen, setLastOpen] = useKeptState<string | null>('open', null);
  const openId = params.get('analysis') ?? lastOpen;
  const asLeft = useAnalysisAsLeft(openId);
  const open = (id: string) => {
    setLastOpen(id);
    const next = new URLSearchParams(params);
    next.set('analysis', id);
    setParams(next, { replace: true });
  };
  const run = (body: AnalyzeInput) =>
    analyze.mutate(body, { onSuccess: (answer) => open(answer.analysisId) });
  return (
    <>
      <PageHeader
        title="Clips"
        description="Short clips suggested from an episode's transcript: hooks, quotable lines, emotion and topics, scored on the bridge without any network. Turn the good ones into Draft Clips in the CRM, render them, make them ready and post them."
      />
      <div className="grid cl-layout">
        <div className="cl-side">
          <TranscriptForm pending={analyze.isPending} onAnalyze={run} />
          <RecentAnalyses openId={openId} onOpen={open} />
        </div>
        <Suggestions
          analysis={asLeft.data}
          runKey={asLeft.data?.analysisId ?? ''}
          pending={analyze.isPending || (openId !== null && asLeft.isPending)}
          error={analyze.error ?? asLeft.error}
          onRetry={() => {
            if (analyze.error && analyze.variables) run(analyze.variables);
            else void asLeft.refetch();
          }}
        />
      </div>
    </>
  );
}
