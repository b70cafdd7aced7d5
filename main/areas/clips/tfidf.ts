/** Sparse TF-IDF vectors over term ids, L2-normalised, and their cosine. */
export type SparseVector = Map<number, number>;

const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are aren as at be because been before being below ' +
    'between both but by can cannot could couldn did didn do does doesn doing don down during each few for from ' +
    'further had hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn ' +
    'it its itself just let me more most my myself no nor not now of off on once only or other our ours ourselves ' +
    'out over own same she should shouldn so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was wasn we were weren what when where which while ' +
    'who whom why will with won would wouldn you your yours yourself yourselves ' +
    // speech: fillers and verbs too common to say what a passage is about
    'yeah yes okay ok oh um uh uhm hmm like know think mean really actually basically literally just gonna wanna ' +
    'gotta kind sort thing things stuff lot lots get got getting go going goes went come came say said says tell ' +
    'told see look make made want right well maybe pretty little bit big good great sure way ever even much many ' +
    'something anything everything nothing someone anyone everyone people person time times year years day days ' +
    'one two three first back still always never every need really thank thanks today talk talking take took ' +
    'give gave put keep start started try trying work working use using feel felt love would could should might ' +
    'must shall may another again else around yet already able whole part point happen happened new old mr mrs ' +
    'mostly need needed find found run running week weeks month months minute minutes hour hours percent half ' +
    'four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred thousand million ' +
    'dot com www slash kept keep keeps last next everybody anybody somebody probably definitely exactly totally course sometimes often usually'
  ).split(/\s+/),
);

/** Content words of a text: lower case, no stop words, no contractions. */
function* contentWords(text: string): Generator<string> {
  for (const match of text.toLowerCase().matchAll(/[\p{L}][\p{L}'-]*/gu)) {
    const word = match[0].replace(/'s$|'$/, '').replace(/^-+|-+$/g, '');
    if (word.length >= 3 && !STOPWORDS.has(word) && !word.includes("'")) yield word;
  }
}

/** A light suffix stripper: enough to join "pricing/priced/price" and "customers/customer". */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 6 && word.endsWith('ing')) return word.slice(0, -3).replace(/(.)\1$/, '$1');
  if (word.length > 5 && word.endsWith('ed')) return word.slice(0, -2).replace(/(.)\1$/, '$1');
  if (word.length > 4 && word.endsWith('es') && /(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us'))
    return word.slice(0, -1);
  return word;
}

/** Term ids, document frequencies and the most common surface form of each stem (for labels). */
export class Vocabulary {
  private readonly ids = new Map<string, number>();

  /** `excluded`: words never used as terms (the speakers' names). */
  constructor(private readonly excluded: ReadonlySet<string> = new Set()) {}

  readonly stems: string[] = [];
  private readonly surface = new Map<number, Map<string, number>>();

  id(stemmed: string): number {
    let id = this.ids.get(stemmed);
    if (id === undefined) {
      id = this.stems.length;
      this.ids.set(stemmed, id);
      this.stems.push(stemmed);
    }
    return id;
  }

  /** Term ids of a text; also records which words each stem came from. */
  termIds(text: string): number[] {
    const out: number[] = [];
    for (const word of contentWords(text)) {
      if (this.excluded.has(word)) continue;
      const id = this.id(stem(word));
      const forms = this.surface.get(id) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      this.surface.set(id, forms);
      out.push(id);
    }
    return out;
  }

  /** The word people said most for this stem (ties: alphabetical, so labels are stable). */
  label(id: number): string {
    const forms = [...(this.surface.get(id) ?? new Map<string, number>()).entries()];
    forms.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return forms[0]?.[0] ?? this.stems[id] ?? '';
  }
}

export function termCounts(ids: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** Smoothed inverse document frequency over documents given as term-count maps. */
export function inverseDocumentFrequency(documents: ReadonlyArray<Map<number, number>>): Map<number, number> {
  const df = new Map<number, number>();
  for (const doc of documents) for (const id of doc.keys()) df.set(id, (df.get(id) ?? 0) + 1);
  const n = documents.length;
  const idf = new Map<number, number>();
  for (const [id, count] of df) idf.set(id, Math.log((n + 1) / (count + 1)) + 1);
  return idf;
}

/** Sub-linear TF × IDF, L2-normalised. */
export function tfidfVector(counts: Map<number, number>, idf: Map<number, number>): SparseVector {
  const vector: SparseVector = new Map();
  let norm = 0;
  for (const [id, count] of counts) {
    const weight = (1 + Math.log(count)) * (idf.get(id) ?? 1);
    vector.set(id, weight);
    norm += weight * weight;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [id, weight] of vector) vector.set(id, weight / norm);
  return vector;
}

export function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [id, weight] of small) {
    const other = large.get(id);
    if (other !== undefined) dot += weight * other;
  }
  return dot;
}

/** Sum of vectors, L2-normalised (a centroid). */
export function centroid(vectors: readonly SparseVector[]): SparseVector {
  const sum: SparseVector = new Map();
  for (const vector of vectors) for (const [id, weight] of vector) sum.set(id, (sum.get(id) ?? 0) + weight);
  let norm = 0;
  for (const weight of sum.values()) norm += weight * weight;
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [id, weight] of sum) sum.set(id, weight / norm);
  return sum;
}

/** The heaviest terms of a vector, ties broken by term id (deterministic). */
export function topTerms(vector: SparseVector, count: number): number[] {
  return [...vector.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, count)
    .map(([id]) => id);
}
