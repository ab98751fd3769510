/**
 * Text helpers of the local engine: meaningful words of a text, and a weighted word-overlap index
 * that finds the most related document for a query without comparing every pair.
 */

// Words that say nothing about what a text is about.
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by for from has have had in is it its of on or that the this to was were will with ' +
    'about into our your their they them we you he she not no yes do does did can could should would than then there here ' +
    'what when where which who why how new just also more most very all any some one two via per out up over after before ' +
    'if so us me my his her him i am being get got re fwd'
  ).split(' '),
);

/**
 * A light, deterministic stem so word forms meet: "release", "released", "releases" → "releas";
 * "crash", "crashes" → "crash"; "pricing", "prices" → "pric". Short words are left alone.
 */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  let w = word;
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

function* meaningful(text: string): Generator<[string, string]> {
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOP_WORDS.has(raw) || /^\d+$/.test(raw)) continue;
    yield [stem(raw), raw];
  }
}

/** The distinct meaningful words of a text (lowercased, stemmed), in order of first appearance. */
export function words(text: string): string[] {
  const out = new Set<string>();
  for (const [w] of meaningful(text)) out.add(w);
  return [...out];
}

/** Each stem of a text with the first form it appeared in (to show a stem as a word). */
export function surfaceForms(text: string, into: Map<string, string> = new Map()): Map<string, string> {
  for (const [w, raw] of meaningful(text)) if (!into.has(w)) into.set(w, raw);
  return into;
}

/**
 * Word-overlap similarity with inverse-document-frequency weights: a word shared by few documents
 * counts more than one shared by many. score = Σ shared w² / √(Σ a w² · Σ b w²) (a weighted cosine
 * over word sets), 0..1. Lookups walk only the postings of the query's words (an inverted index),
 * so triaging n signals against m tasks costs about the number of shared words, not n × m.
 */
export class OverlapIndex {
  private readonly df = new Map<string, number>();
  private docCount = 0;
  private readonly postings = new Map<string, number[]>();
  private readonly norms: number[] = [];
  private readonly targetWords: Set<string>[] = [];

  /** Counts the documents the weights are computed over (call for every document before lookups). */
  observe(docWords: readonly string[]): void {
    this.docCount += 1;
    for (const w of docWords) this.df.set(w, (this.df.get(w) ?? 0) + 1);
  }

  weight(word: string): number {
    const df = this.df.get(word) ?? 1;
    return Math.log(1 + Math.max(this.docCount, 1) / df);
  }

  private norm(docWords: readonly string[]): number {
    let sum = 0;
    for (const w of docWords) sum += this.weight(w) ** 2;
    return Math.sqrt(sum);
  }

  /** Adds a target document; returns its number (targets are numbered 0, 1, 2 ... in insertion order). */
  add(docWords: readonly string[]): number {
    const id = this.norms.length;
    this.norms.push(this.norm(docWords));
    this.targetWords.push(new Set(docWords));
    for (const w of docWords) {
      let list = this.postings.get(w);
      if (!list) this.postings.set(w, (list = []));
      list.push(id);
    }
    return id;
  }

  /**
   * The best target for a query: highest score, then the lowest target number (earlier = ranked
   * higher), among those sharing at least `minShared` words and scoring at least `threshold`.
   */
  best(queryWords: readonly string[], threshold: number, minShared: number): { target: number; score: number } | null {
    const qNorm = this.norm(queryWords);
    if (qNorm === 0) return null;
    // Rare words nominate candidates through their postings; very common words (in more than a
    // fifth of the documents) only add to candidates already nominated, so one ubiquitous word
    // cannot make every lookup walk every target.
    const common = Math.max(25, this.docCount / 5);
    const dot = new Map<number, number>();
    const shared = new Map<number, number>();
    const frequent: string[] = [];
    for (const w of queryWords) {
      const list = this.postings.get(w);
      if (!list) continue;
      if ((this.df.get(w) ?? 0) > common) {
        frequent.push(w);
        continue;
      }
      const w2 = this.weight(w) ** 2;
      for (const id of list) {
        dot.set(id, (dot.get(id) ?? 0) + w2);
        shared.set(id, (shared.get(id) ?? 0) + 1);
      }
    }
    for (const w of frequent) {
      const w2 = this.weight(w) ** 2;
      for (const id of dot.keys()) {
        if (!this.targetWords[id].has(w)) continue;
        dot.set(id, (dot.get(id) ?? 0) + w2);
        shared.set(id, (shared.get(id) ?? 0) + 1);
      }
    }
    let best: { target: number; score: number } | null = null;
    for (const [id, d] of dot) {
      if ((shared.get(id) ?? 0) < minShared || this.norms[id] === 0) continue;
      const score = d / (qNorm * this.norms[id]);
      if (score < threshold) continue;
      if (!best || score > best.score || (score === best.score && id < best.target)) best = { target: id, score };
    }
    return best;
  }
}

/** How much of their meaningful words two texts must share (Jaccard) to say the same thing. */
export const SAME_STATEMENT = 0.75;

/**
 * Whether two texts say the same thing: their meaningful words overlap by at least `threshold`
 * (shared / all). Texts without a meaningful word are the same only when equal, ignoring case,
 * spacing and punctuation.
 */
export function sameStatement(a: string, b: string, threshold = SAME_STATEMENT): boolean {
  const wa = new Set(words(a));
  const wb = new Set(words(b));
  if (wa.size === 0 || wb.size === 0) return a.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '') === b.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared += 1;
  return shared / (wa.size + wb.size - shared) >= threshold;
}

/**
 * Items grouped by what they say: each group holds an item and the later ones that repeat it
 * (sameStatement on `text`), in order of first appearance. Three signals that carry one headline
 * become one group, cited once with all three.
 */
export function groupRepeats<T>(items: readonly T[], text: (item: T) => string, threshold = SAME_STATEMENT): T[][] {
  const groups: { text: string; items: T[] }[] = [];
  for (const item of items) {
    const t = text(item);
    const same = groups.find((g) => sameStatement(g.text, t, threshold));
    if (same) same.items.push(item);
    else groups.push({ text: t, items: [item] });
  }
  return groups.map((g) => g.items);
}

/** The sentences of a text (split after . ! ? or a line break). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^[-*•]\s+/, '').trim())
    .filter((s) => s !== '');
}

/** The sentences, without those that repeat an earlier one. */
export function distinctSentences(sentences: readonly string[], threshold = SAME_STATEMENT): string[] {
  return groupRepeats(sentences, (s) => s, threshold).map((g) => g[0]);
}
