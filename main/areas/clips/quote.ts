/** Leading words that a quote does without ("So, ...", "And honestly, ..."). */
const LEADING_FILLER =
  /^(?:(?:so|and|but|well|okay|ok|yeah|yes|right|look|like|now|um+|uh+|er|ah|oh|honestly|basically|i mean|you know|anyway)\b[,.]?\s+)+/i;
const INNER_DISFLUENCY = /(?:,\s*)?\b(?:um+|uh+|erm|er|ah)\b,?\s*/gi;
const INNER_HEDGES = /,\s*(?:you know|i mean|like),/gi;
/** "I I think", "the, the": stuttered short words said once. */
const STUTTER = /\b(i|a|the|and|we|it|to|you|so|but|is|it's|that's|this|my)(?:,? \1\b)+/gi;
const MAX_QUOTE_WORDS = 32;

/**
 * A transcript sentence as a clean quote: disfluencies and leading fillers dropped, a
 * capital first letter, end punctuation; over-long sentences cut at a clause boundary with "…".
 */
export function cleanQuote(sentence: string): string {
  let text = sentence
    .replace(INNER_HEDGES, ',')
    .replace(INNER_DISFLUENCY, ' ')
    .replace(STUTTER, '$1')
    .replace(/\s+([,.!?;:])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const stripped = text.replace(LEADING_FILLER, '');
  if (stripped.split(' ').length >= 4) text = stripped;
  text = text.replace(/^[,;:\-–—\s]+/, '');
  const words = text.split(' ');
  if (words.length > MAX_QUOTE_WORDS) {
    const head = words.slice(0, MAX_QUOTE_WORDS).join(' ');
    const clause = Math.max(head.lastIndexOf(', '), head.lastIndexOf('; '), head.lastIndexOf(' — '));
    text = `${(clause > head.length * 0.4 ? head.slice(0, clause) : head).replace(/[,;:\s]+$/, '')}…`;
  } else if (!/[.!?…]["'”’)]*$/.test(text)) {
    text = `${text.replace(/[,;:\s]+$/, '')}.`;
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}
