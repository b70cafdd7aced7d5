import { MAX_FILENAME_BYTES } from '../../../shared/recorder-filename.js';
import { bridgeLabel } from '../api/transport/desktop.js';
import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { MarkPanel } from './MarkPanel.js';
import { OnAirWarning } from './OnAirWarning.js';
import { ProductionNamePanel } from './ProductionNamePanel.js';
import { RecorderCard } from './RecorderCard.js';
import { RecorderPanel } from './RecorderPanel.js';
import { TakesPanel } from './TakesPanel.js';
import './recorder.css';

export function RecorderPage() {
  return (
    <>
      <PageHeader
        title="Recorder"
        description="The filename OBS will use for its next recording, its takes and the moments marked in them."
      />
      <OnAirWarning />
      <div className="grid grid-2-1">
        <div className="grid grid-stack">
          <RecorderPanel title="Filename" />
          <ProductionNamePanel />
          <RecorderCard controls />
          <MarkPanel />
          <TakesPanel />
        </div>
        <Panel title="How it works">
          <ul className="plain-list">
            <li>
              The bridge keeps the name in memory only: after a restart it holds none, and the panel says
              whether OBS kept it for the next recording.
            </li>
            <li>
              With OBS connected (<code>RECORDER_OBS_URL</code>), a name is sent to OBS and read back; a name
              a take already used gets <code>_T02</code>, <code>_T03</code>… so no file is overwritten.
            </li>
            <li>
              A name is checked here with the same rule the bridge applies, so what this page accepts the
              bridge accepts.
            </li>
          </ul>
          <h3 className="subheading">Rules</h3>
          <ul className="rule-list">
            <li>1 to {MAX_FILENAME_BYTES} bytes of UTF-8</li>
            <li>
              none of <code>/ \ : * ? " &lt; &gt; |</code> and no control characters
            </li>
            <li>
              not <code>.</code> or <code>..</code>, and no leading or trailing space or dot
            </li>
            <li>no text-direction controls, which make a name read differently from what is saved</li>
            <li>
              not a Windows device name: <code>CON</code>, <code>PRN</code>, <code>AUX</code>,{' '}
              <code>NUL</code>, <code>COM1</code>–<code>COM9</code>, <code>LPT1</code>–<code>LPT9</code>, with
              or without an extension
            </li>
          </ul>
          <p className="muted small">
            A refused name comes with a suggestion in the form <code>YYYYMMDD_name</code>.
          </p>
          <h3 className="subheading">For the device</h3>
          <p className="muted small">The recording device (or a CRM button) reads the name with:</p>
          <pre className="code-block">{`GET /api/recorder/filename HTTP/1.1\nHost: ${new URL(bridgeLabel()).host}\nAuthorization: Bearer <key>`}</pre>
        </Panel>
      </div>
    </>
  );
}
