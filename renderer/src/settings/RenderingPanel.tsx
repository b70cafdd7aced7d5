import type { ReactNode } from 'react';
import type { MediaToolInfo } from '../../../shared/api/renders.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { useRenderingSetup } from './rendering-api.js';

const whereFound: Record<MediaToolInfo['source'], string> = {
  setting: 'set in FFMPEG_PATH / FFPROBE_PATH',
  path: 'found on PATH',
  npm: 'shipped with the app (@ffmpeg-installer/ffmpeg)',
};

const diskSize = (bytes: number) =>
  bytes < 1e9 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e9).toFixed(1)} GB`;

/** Issue #43.2, .3: which FFmpeg renders clips (where found, its version), and the disk renders take. */
export function RenderingPanel({ children }: { children?: ReactNode }) {
  const setup = useRenderingSetup();
  return (
    <Panel title="Clip rendering" testId="settings-rendering">
      <QueryContent query={setup} what="the rendering setup">
        {(data) => (
          <dl className="facts">
            <dt>FFmpeg</dt>
            <dd data-testid="rendering-ffmpeg">
              {data.ffmpeg ? (
                <Tool tool={data.ffmpeg} />
              ) : (
                <span className="field-error">
                  None found: renders are refused until FFMPEG_PATH is set or FFmpeg is on PATH.
                </span>
              )}
            </dd>
            <dt>ffprobe</dt>
            <dd>
              {data.ffprobe ? (
                <Tool tool={data.ffprobe} />
              ) : (
                <span className="muted">None found: takes are read with FFmpeg itself.</span>
              )}
            </dd>
            <dt>Caption font</dt>
            <dd>
              {data.font.family} <span className="muted small">({data.font.license})</span>
            </dd>
            <dt>Renders</dt>
            <dd data-testid="rendering-storage">
              {data.storage.renders} on disk, {diskSize(data.storage.bytes)}
              {data.storage.freeBytes !== null ? `, ${diskSize(data.storage.freeBytes)} free` : ''}; kept{' '}
              {data.storage.keptDays} days
              <div className="mono small muted break">{data.storage.dir}</div>
            </dd>
          </dl>
        )}
      </QueryContent>
      {children}
    </Panel>
  );
}

function Tool({ tool }: { tool: MediaToolInfo }) {
  return (
    <>
      <span className="mono break">{tool.path}</span>{' '}
      <span className="muted small">{whereFound[tool.source]}</span>
      <div className="small">{tool.version ? `version ${tool.version}` : 'did not say its version'}</div>
    </>
  );
}
