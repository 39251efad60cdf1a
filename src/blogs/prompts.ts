// Asks a person for the BlogParams the flags and the file left out: keywords as text, the option objects as
// lists of common choices with an "Other…" entry, length as a choice. Only called when io.canPrompt.
import type { Prompter } from '../prompts/prompter.js';
import { blogLengthValues } from '../schemas/blog.js';
import { parseKeywords, type BlogParamsDraft, type RequiredField } from './params.js';

const OTHER = '\u0000other';

/** Common choices; "Other…" takes any text, which becomes {name, value} just as `--tone <text>` would. */
export const COMMON_CHOICES: Record<
  Exclude<RequiredField, 'topicKeywords' | 'blogLength'>,
  { message: string; choices: string[] }
> = {
  language: {
    message: 'Language',
    choices: [
      'English',
      'Spanish',
      'French',
      'German',
      'Portuguese',
      'Italian',
      'Dutch',
      'Polish',
      'Japanese',
      'Chinese',
    ],
  },
  toneStyle: {
    message: 'Tone',
    choices: [
      'Professional',
      'Friendly',
      'Casual',
      'Informative',
      'Persuasive',
      'Authoritative',
      'Humorous',
      'Inspirational',
    ],
  },
  contentStructure: {
    message: 'Structure',
    choices: [
      'How-to guide',
      'Listicle',
      'Step-by-step tutorial',
      'Q&A / FAQ',
      'Opinion piece',
      'Comparison',
      'Case study',
    ],
  },
  callToAction: {
    message: 'Call to action',
    choices: [
      'Subscribe to the newsletter',
      'Read more articles',
      'Contact us',
      'Leave a comment',
      'Share this post',
      'Buy now',
    ],
  },
  targetAudience: {
    message: 'Audience',
    choices: [
      'Beginners',
      'General readers',
      'Professionals',
      'Small business owners',
      'Developers',
      'Students',
      'Parents',
    ],
  },
};

const LENGTH_HINTS: Record<(typeof blogLengthValues)[number], string> = {
  Short: 'a quick read',
  Medium: 'a standard article',
  Long: 'an in-depth piece',
};

/** Fills `missing` in the draft, in the order given (requiredBlogParamFields: keywords first, length last). */
export async function askMissingParams(
  draft: BlogParamsDraft,
  missing: RequiredField[],
  prompter: Prompter,
): Promise<void> {
  for (const field of missing) {
    if (field === 'topicKeywords') {
      const answer = await prompter.input('Topic keywords (comma-separated)', {
        validate: (v) => (v.split(',').some((k) => k.trim()) ? true : 'enter at least one keyword'),
      });
      draft.params.topicKeywords = parseKeywords([answer]);
    } else if (field === 'blogLength') {
      const value = await prompter.select(
        'Length',
        blogLengthValues.map((v) => ({ name: v, value: v, description: LENGTH_HINTS[v] })),
        { default: 'Medium' },
      );
      draft.params.blogLength = { name: value, value };
    } else {
      const { message, choices } = COMMON_CHOICES[field];
      let answer: string = await prompter.select(message, [
        ...choices.map((c) => ({ name: c, value: c })),
        { name: 'Other…', value: OTHER },
      ]);
      if (answer === OTHER) {
        answer = (
          await prompter.input(message, { validate: (v) => (v.trim() ? true : 'enter some text') })
        ).trim();
      }
      draft.params[field] = { name: answer, value: answer };
    }
    draft.origins[field] = 'prompt';
  }
}
