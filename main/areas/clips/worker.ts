import { parentPort } from 'node:worker_threads';
import { analyzeAndKeep } from './analyze.js';
import { TranscriptError } from './parse.js';
import type { AnalysisReply, AnalysisRequest } from './runner.js';

/** Worker thread entry: analyses one transcript per message, so the bridge's event loop stays free. */
parentPort?.on('message', (request: AnalysisRequest) => {
  // The time limit counts from here, not from the worker's start-up.
  parentPort?.postMessage({ id: request.id, started: true } satisfies AnalysisReply);
  let reply: AnalysisReply;
  try {
    reply = {
      id: request.id,
      ok: true,
      outcome: analyzeAndKeep(request.transcript, { maxClips: request.maxClips, marks: request.marks }),
    };
  } catch (error) {
    reply =
      error instanceof TranscriptError
        ? { id: request.id, ok: false, rule: error.rule, message: error.message }
        : {
            id: request.id,
            ok: false,
            rule: null,
            message: error instanceof Error ? (error.stack ?? error.message) : String(error),
          };
  }
  parentPort?.postMessage(reply);
});
