import { useEffect, useRef, useState } from 'react';
import type { Alarm } from '../../../shared/api/health.js';
import { useHealth } from '../api/transport/health.js';
import { useFailures } from '../api/live/failure-store.js';
import { alarmChannel, alarmPage, newAlarms } from './alarm-words.js';

/**
 * Raises each new alarm of GET /health once (DESIGN §6.9 "nothing overdue is silent"): as a
 * browser notification where that is possible, else as an alert on the page with a sound. The
 * Overview banner lists every alarm still standing.
 */
export function AlarmAlerts() {
  const alarms = useHealth().data?.alarms;
  const { notify } = useFailures();
  const raised = useRef(new Set<string>());
  const [shown, setShown] = useState<Alarm[]>([]);

  useEffect(() => {
    if (!alarms) return;
    const fresh = newAlarms(alarms, raised.current);
    if (fresh.length === 0) return;
    for (const alarm of fresh) raised.current.add(alarm.id);
    const channel = alarmChannel({
      secureContext: window.isSecureContext,
      permission: 'Notification' in window ? Notification.permission : 'unsupported',
      notifyChosen: notify,
    });
    if (channel === 'notification') {
      for (const alarm of fresh) notifyAlarm(alarm);
      return;
    }
    setShown((current) => [...current, ...fresh]);
    beep();
  }, [alarms, notify]);

  // An alarm that cleared by itself leaves the page too.
  const standing = new Set(alarms?.map((alarm) => alarm.id) ?? []);
  const visible = shown.filter((alarm) => standing.has(alarm.id));
  if (visible.length === 0) return null;
  return (
    <div className="alarm-toast" role="alert" data-testid="alarm-toast">
      <strong>{visible.length === 1 ? alarmPage[visible[0]!.kind].title : `${visible.length} alarms`}</strong>
      <ul className="alarm-list">
        {visible.map((alarm) => (
          <li key={alarm.id}>{alarm.message}</li>
        ))}
      </ul>
      <button type="button" className="button button-small" onClick={() => setShown([])}>
        Dismiss
      </button>
    </div>
  );
}

function notifyAlarm(alarm: Alarm): void {
  const page = alarmPage[alarm.kind];
  const notification = new Notification(page.title, {
    body: alarm.message,
    tag: `studio-bridge-${alarm.id}`,
  });
  notification.onclick = () => {
    window.focus();
    window.location.hash = `#${page.path}`;
  };
}

/** Two short tones; a browser that blocks sound before the first click stays quiet, the alert still shows. */
function beep(): void {
  try {
    const audio = new AudioContext();
    for (const [index, frequency] of [880, 660].entries()) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      gain.gain.value = 0.15;
      tone.frequency.value = frequency;
      tone.connect(gain).connect(audio.destination);
      tone.start(audio.currentTime + index * 0.25);
      tone.stop(audio.currentTime + index * 0.25 + 0.2);
    }
    setTimeout(() => void audio.close(), 1_000);
  } catch {
    // No audio here: the alert on the page is the signal.
  }
}
