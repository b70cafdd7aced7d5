/**
 * A scoring signal's evidence as words (issue #40.4): the emotion signal's first item is the
 * analysis's AFINN score ("AFINN -2"), which the card says as a tone before the words that scored.
 */
export function evidenceWords(evidence: readonly string[]): string {
  const [first, ...rest] = evidence;
  const score = first?.match(/^AFINN ([+-]?\d+(?:\.\d+)?)$/);
  if (!score) return evidence.join(', ');
  const value = Number(score[1]);
  const tone = value > 0 ? 'positive tone' : value < 0 ? 'negative tone' : 'neutral tone';
  return rest.length > 0 ? `${tone}: ${rest.join(', ')}` : tone;
}
