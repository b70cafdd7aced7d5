import { useAnalyzeClips } from './api.js';
import type { AnalyzeInput } from './api.js';
import { Suggestions } from './Suggestions.js';
import { TranscriptForm } from './TranscriptForm.js';
import { PageHeader } from '../components/PageHeader.js';
import './clips.css';

export function ClipsPage() {
  const analyze = useAnalyzeClips();
  const run = (body: AnalyzeInput) => analyze.mutate(body);
  return (
    <>
      <PageHeader
        title="Clips"
        description="Short clips suggested from an episode's transcript: hooks, quotable lines, emotion and topics, scored on the bridge without any network. Turn the good ones into Draft Clips in the CRM."
      />
      <div className="grid cl-layout">
        <TranscriptForm pending={analyze.isPending} onAnalyze={run} />
        <Suggestions
          analysis={analyze.data}
          runKey={analyze.submittedAt}
          pending={analyze.isPending}
          error={analyze.error}
          onRetry={() => {
            if (analyze.variables) run(analyze.variables);
          }}
        />
      </div>
    </>
  );
}
