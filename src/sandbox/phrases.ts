// The generator's vocabulary: titles per structure and tone, section headings per structure, and the
// sentence bank the body is filled from. Kept apart from the assembly logic so either can change alone.
import type { BlogLength } from '../schemas/blog.js';

export type Tone = 'casual' | 'formal' | 'energetic' | 'neutral';
export type StructureKind = 'howto' | 'listicle' | 'qa' | 'generic';

export interface Words {
  keywords: string[];
  audience: string;
  tone: Tone;
}

/** Free-text tone names ("Friendly and casual", "Professional") mapped onto four voices. */
export function toneOf(value: string): Tone {
  if (/casual|friendly|conversational|informal|playful|humou?r|fun/i.test(value)) return 'casual';
  if (/formal|professional|academic|authoritative|technical|expert/i.test(value)) return 'formal';
  if (/persuasive|inspir|motivat|enthusias|bold|energetic|exciting/i.test(value)) return 'energetic';
  return 'neutral';
}

export function structureOf(value: string): StructureKind {
  if (/q\s*&\s*a|\bqa\b|faq|question/i.test(value)) return 'qa';
  if (/list/i.test(value)) return 'listicle';
  if (/how[\s-]*to|guide|tutorial|step/i.test(value)) return 'howto';
  return 'generic';
}

const COUNTS: Record<StructureKind, Record<BlogLength, number>> = {
  howto: { Short: 3, Medium: 5, Long: 7 },
  listicle: { Short: 5, Medium: 7, Long: 10 },
  qa: { Short: 4, Medium: 6, Long: 8 },
  generic: { Short: 4, Medium: 5, Long: 7 },
};

export interface SectionPlan {
  kind: StructureKind;
  headings: string[];
  /** Steps, list items or questions: the number some titles mention. */
  items: number;
}

export function sectionPlan(structure: string, length: BlogLength, words: Words): SectionPlan {
  const kind = structureOf(structure);
  const items = COUNTS[kind][length];
  const values = { k: words.keywords[0]!, k2: words.keywords[1] ?? words.keywords[0]!, a: words.audience };
  const fill = (s: string): string => fillIn(s, values);
  const take = (bank: string[]): string[] => bank.slice(0, items).map(fill);
  switch (kind) {
    case 'howto':
      return {
        kind,
        items,
        headings: [
          fill('Why {k} is worth your time'),
          'What you need before you start',
          ...take(STEPS).map((s, i) => `Step ${i + 1}: ${s}`),
          'Common mistakes to avoid',
          'Wrapping up',
        ],
      };
    case 'listicle':
      return {
        kind,
        items,
        headings: [...take(LIST_ITEMS).map((s, i) => `${i + 1}. ${s}`), 'Final thoughts'],
      };
    case 'qa':
      return { kind, items, headings: take(QUESTIONS) };
    default:
      return { kind, items, headings: take(GENERIC) };
  }
}

const STEPS = [
  'Set a clear goal for {k}',
  'Gather the basics',
  'Start small with {k2}',
  'Build a simple routine',
  'Measure what changes',
  'Refine your approach',
  'Share what you have learned',
];
const LIST_ITEMS = [
  'Start with the fundamentals of {k}',
  'Understand how {k2} fits in',
  'Set realistic expectations',
  'Keep a simple routine',
  'Learn from people who have done it',
  'Measure your progress',
  'Avoid the most common mistakes',
  'Invest in the right tools',
  'Stay curious about {k}',
  'Share what you learn',
];
const QUESTIONS = [
  'What is {k}?',
  'Why does {k} matter to {a}?',
  'How do I get started with {k}?',
  'How does {k} relate to {k2}?',
  'What mistakes should I avoid?',
  'How long does it take to see results?',
  'Which tools do I need?',
  'Where can I learn more about {k}?',
];
const GENERIC = [
  'Why {k} matters',
  'Key ideas behind {k2}',
  'Putting {k} into practice',
  'Common questions about {k}',
  'Going further with {k2}',
  'Lessons learned',
  'Conclusion',
];

const TITLES: Record<StructureKind, Record<Tone, string>> = {
  howto: {
    formal: 'How to Master {S}: A Step-by-Step Guide',
    casual: 'How to Get Started with {S} (Without the Stress)',
    energetic: 'How to Make {S} Work for You Today',
    neutral: 'How to Get Started with {S}: A Practical Guide',
  },
  listicle: {
    formal: '{n} Essential Insights on {S}',
    casual: '{n} Things I Wish I Knew About {S}',
    energetic: '{n} Powerful Ways to Level Up Your {S}',
    neutral: '{n} Things to Know About {S}',
  },
  qa: {
    formal: '{S}: Frequently Asked Questions Answered',
    casual: 'Your {S} Questions, Answered',
    energetic: 'Everything You Have Wanted to Ask About {S}',
    neutral: '{S}: Your Questions Answered',
  },
  generic: {
    formal: '{S}: An In-Depth Overview',
    casual: "Let's Talk About {S}",
    energetic: 'Why {S} Matters More Than Ever',
    neutral: 'A Practical Guide to {S}',
  },
};

export function titleFor(kind: StructureKind, words: Words, items: number): string {
  const [first, second] = words.keywords;
  const subject = second ? `${titleCase(first!)} and ${titleCase(second)}` : titleCase(first!);
  return fillIn(TITLES[kind][words.tone], { S: subject, n: String(items) });
}

/**
 * Replaces `{name}` placeholders in one pass, with the values taken literally: a keyword such as "$&" or
 * "{k2}" is text, not a replacement pattern or another placeholder.
 */
function fillIn(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

const SENTENCES = [
  'Getting {k} right starts with a clear picture of what you want to achieve.',
  'Many {a} find that {k} becomes easier once they connect it with {k2}.',
  'A small, consistent effort with {k} usually beats an occasional big push.',
  'It helps to write down what worked and what did not, so the next attempt with {k} goes better.',
  'When {k} feels overwhelming, break it into steps you can finish in a single session.',
  'The details of {k} matter, but the fundamentals matter more.',
  'Think about how {k} fits into the rest of your week before you commit to a plan.',
  'Experienced practitioners often point out that {k2} and {k} reinforce each other.',
  'Measure one thing at a time, otherwise it is hard to tell which change made the difference.',
  'There is no single correct approach to {k}, only approaches that suit your situation.',
  'Start with the tools you already have and upgrade only when you know what is missing.',
  'Most problems with {k} trace back to skipping the basics.',
  'Ask for feedback early, because a fresh pair of eyes spots issues with {k} quickly.',
  'Good habits around {k2} make the rest of the process smoother.',
  'Keep your goals for {k} realistic, and review them every few weeks.',
  'Learning from mistakes is part of the process, so treat each one as useful information.',
  'For {a}, the quickest wins with {k} usually come from simple, repeatable routines.',
  'Compare your results over time rather than against other people.',
  'A short checklist can keep {k} on track when the week gets busy.',
  'Once the basics of {k} are in place, you can experiment with {k2} with confidence.',
];

const OPENERS: Record<Tone, string[]> = {
  casual: ["Here's the thing:", "Let's be real:", 'The good news?', 'Quick tip:'],
  formal: ['In practice,', 'Notably,', 'It is worth noting that', 'Consequently,'],
  energetic: ['Here is the exciting part:', 'Think big:', 'Believe it:', 'Go for it:'],
  neutral: ['In short,', 'Also,', 'In addition,', 'Over time,'],
};

export interface SentenceSource {
  /** The next HTML-escaped body sentence. */
  next(): string;
  /** The keywords no sentence has named yet, in their order. */
  unwoven(): string[];
}

/**
 * HTML-escaped body sentences. Templates are dealt from a shuffled deck (no repeats until all are used); the
 * tone adds an occasional opener. Each keyword slot of a template takes the next keyword not yet named
 * (`named`: those the rest of the post already shows), then they rotate; templates without a slot take
 * none, so no keyword is skipped.
 */
export function sentenceSource(random: () => number, words: Words, named: string[] = []): SentenceSource {
  let deck: string[] = [];
  const waiting = [...new Set(words.keywords)].filter((k) => !named.includes(k));
  let turn = 0;
  const nextKeyword = (): string => waiting.shift() ?? words.keywords[turn++ % words.keywords.length]!;
  return {
    next() {
      if (!deck.length) deck = shuffle(SENTENCES, random);
      let sentence = deck.pop()!;
      if (random() < 0.3) {
        const openers = OPENERS[words.tone];
        const opener = openers[Math.floor(random() * openers.length)]!;
        const keepCapital = /[:?]$/.test(opener);
        sentence = `${opener} ${keepCapital ? sentence : sentence.charAt(0).toLowerCase() + sentence.slice(1)}`;
      }
      const k = sentence.includes('{k}') ? nextKeyword() : '';
      let k2 = sentence.includes('{k2}') ? nextKeyword() : '';
      // "connect grinder with grinder": take the one after, when there is another.
      if (k2 && k2 === k && new Set(words.keywords).size > 1) k2 = nextKeyword();
      return escapeHtml(fillIn(sentence, { k, k2, a: words.audience }));
    },
    unwoven: () => [...waiting],
  };
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Capitalises each word and leaves the rest alone, so "SEO tips" stays "SEO Tips". */
export function titleCase(text: string): string {
  return text.replace(/(^|\s)(\S)/g, (_m, space: string, c: string) => space + c.toUpperCase());
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
