// Content layers (payload file, Markdown front matter, a generated blog, flags) → a draft ready to publish:
// the validated fields, the category and tag references still to be resolved on the site, the date turned
// into the field that carries it (schedule.ts), and the checks that would otherwise only fail at WordPress (a
// sticky post with a password, `future` without a date). Pure: the clock is passed in.
import { UsageError } from '../../errors.js';
import { registerSecret } from '../../output/redact.js';
import type { PostContent } from '../../schemas/wordpress.js';
import type { TermRef } from '../../wordpress/terms.js';
import type { SeoFields } from '../../wordpress/seo.js';
import type { MarkdownPost } from './markdown.js';
import { frontMatterName } from './front-matter-lines.js';
import { FIELD_FLAGS, mergeLayers, validateMerged, type ContentLayer } from './post-payload.js';
import { titleTextToHtml } from '../title-text.js';
import { planSchedule, type ScheduleInput, type SiteZone } from './schedule.js';

export interface PostDraft {
  /**
   * Validated; the date planned into `date_gmt` (it had an offset) or `date` (the site's local time), never
   * both; no `categories` or `tags` yet.
   */
  content: PostContent;
  /** Names, slugs or ids, in the order given; undefined when the field was not set at all. */
  categories?: TermRef[];
  tags?: TermRef[];
  /**
   * Where each field's value came from, as messages name it (`posts/a.md:5: tags`, `--tag`): what an error
   * found later (an unknown term, a slug asked for twice) points at.
   */
  origin?: Record<string, string>;
  /**
   * The SEO fields asked for (front matter `seo:` over blogctl.yml `defaults.seo`), already checked: sent to
   * the site's SEO plugin, not in `content`. Undefined when none was set.
   */
  seo?: SeoFields;
  /** The status asked for (WordPress may give another one, see planSchedule). */
  requestedStatus: string;
  /**
   * Whether a status was stated (front matter, a flag, a project default). An unstated one creates a draft
   * and is never compared with, nor sent to, an existing post: its status stays as it is on the site.
   */
  statusStated: boolean;
  /** The status WordPress will give the post, when the date makes it differ or is worth stating. */
  expectedStatus?: string;
  /** To print before sending (schedule surprises). */
  warnings: string[];
  /** A local date's schedule, to check again once the site's time zone is known (checkOnSite). */
  schedule?: ScheduleInput;
  /**
   * `future` without a usable date (none, past, under 60 s ahead), with `deferTiming`: an error (exit 2)
   * only if the post's status or date is sent — a create, or an update of either (checked by the plan).
   */
  scheduleProblem?: string;
}

export interface DraftOptions {
  now: Date;
  /**
   * `--allow-immediate`: a `future` post without a usable date (none, past, under 60 s ahead) is sent
   * anyway, and WordPress publishes it at once.
   */
  allowImmediate?: boolean;
  /**
   * Keep a `future` post's unusable date as `scheduleProblem` instead of throwing: for a source that may
   * already be published, whose date passing is no reason to fail a later run that leaves it alone.
   */
  deferTiming?: boolean;
}

/**
 * Merges the layers (later ones win), validates every field, plans the date and refuses what WordPress would
 * refuse. Errors are UsageErrors naming the flag or file field to fix.
 *
 * Dates: with an offset, one UTC `date_gmt`; without one, `date` as written (the site's local time). A local
 * date is checked against the clock only once the site's time zone is known (checkOnSite).
 */
export function buildPostDraft(layers: ContentLayer[], options: DraftOptions): PostDraft {
  const { merged, origin } = mergeLayers(layers);
  const statusStated = origin['status'] !== undefined;
  const categories = takeRefs(merged, origin, 'categories');
  const tags = takeRefs(merged, origin, 'tags');
  const date = takeText(merged, origin, 'date');
  const dateGmt = takeText(merged, origin, 'date_gmt');
  const seo = merged['seo'] as SeoFields | undefined;
  delete merged['seo'];
  const content = validateMerged(merged, origin);
  // A post's password is a secret wherever it was written (a flag, stdin, the environment, front matter, -f):
  // no output shows it.
  if (typeof content.password === 'string') registerSecret(content.password);

  const schedule: ScheduleInput = {
    status: content.status,
    ...(date && { date: date.value }),
    ...(dateGmt && { dateGmt: dateGmt.value }),
    now: options.now,
    allowImmediate: Boolean(options.allowImmediate),
    names: { date: date?.name ?? FIELD_FLAGS.date, dateGmt: dateGmt?.name ?? FIELD_FLAGS.date_gmt },
  };
  const plan = planSchedule(schedule);
  const deferred = plan.error !== undefined && plan.timing && options.deferTiming;
  if (plan.error && !deferred) throw new UsageError(plan.error);
  if (plan.date_gmt) content.date_gmt = plan.date_gmt;
  if (plan.date) content.date = plan.date;

  // WordPress answers 400 rest_invalid_field ("A post can not be sticky and have a password") after the
  // terms were created and the image uploaded: refuse it before anything is sent.
  if (content.sticky === true && content.password) {
    const sticky = origin['sticky'] ?? FIELD_FLAGS.sticky;
    const password = origin['password'] ?? FIELD_FLAGS.password;
    throw new UsageError(
      `${sticky} and ${password} cannot go together: WordPress refuses a sticky post with a password`,
    );
  }
  return {
    content,
    ...(categories && { categories }),
    ...(tags && { tags }),
    ...(seo && Object.keys(seo).length && { seo }),
    origin,
    requestedStatus: content.status,
    statusStated,
    ...(plan.expectedStatus && { expectedStatus: plan.expectedStatus }),
    warnings: plan.warnings,
    ...(plan.needsZone && { schedule }),
    ...(deferred && { scheduleProblem: plan.error }),
  };
}

/**
 * A local date checked again in the site's time zone (from its REST index): a `future` post whose date is
 * past or too close gets its `scheduleProblem` (an error if the date or status is sent), else the warnings
 * and expected status. Updates the draft in place.
 */
export function checkOnSite(draft: PostDraft, zone: SiteZone, now: Date): void {
  if (!draft.schedule) return;
  const plan = planSchedule({ ...draft.schedule, zone, now });
  if (plan.error) {
    draft.scheduleProblem = plan.error;
    return;
  }
  delete draft.scheduleProblem;
  draft.warnings.push(...plan.warnings);
  if (plan.expectedStatus) draft.expectedStatus = plan.expectedStatus;
  else delete draft.expectedStatus;
}

/** Front matter that is no post field: an image to upload, the source's identity, how to read the title and body. */
const NOT_SENT = new Set([
  'featured_image',
  'key',
  'blog_id',
  'title_html',
  'editor',
  'body',
  'type',
  'parent',
  'menu_order',
  'terms',
]);

/**
 * A Markdown file's front matter and body as a layer. `featured_image` is not a post field (it is uploaded),
 * nor are `key` and `blog_id` (they name the post's source: publish-sources.ts), nor `title_html` (the title
 * is text, escaped here, unless it says the title is HTML), nor `type`, `parent`, `menu_order` and `terms`
 * (what kind of post it is and where it hangs: the job carries them, post-kinds.ts).
 */
export function frontMatterLayer(post: MarkdownPost, label: string): ContentLayer {
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  for (const [key, value] of Object.entries(post.fields)) {
    if (NOT_SENT.has(key) || value === undefined) continue;
    values[key] = key === 'title' && !post.fields.title_html ? titleTextToHtml(value as string) : value;
    names[key] = frontMatterName(label, key, post.lines[key]);
  }
  values['content'] = post.html;
  names['content'] = label;
  return { values, names };
}

function takeRefs(
  merged: Record<string, unknown>,
  origin: Record<string, string>,
  field: 'categories' | 'tags',
): TermRef[] | undefined {
  const value = merged[field];
  delete merged[field];
  if (value === undefined) return undefined;
  const name = origin[field] ?? FIELD_FLAGS[field];
  // A payload file may write "News, Tips" where flags would be repeated.
  const items: unknown[] =
    typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [value];
  const refs: TermRef[] = [];
  for (const item of items) {
    if (typeof item === 'number' && Number.isSafeInteger(item) && item > 0) refs.push(item);
    else if (typeof item === 'string' && item.trim()) {
      const text = item.trim();
      refs.push(/^\d{1,15}$/.test(text) ? Number(text) : text);
    } else if (!(typeof item === 'string' && !item.trim())) {
      throw new UsageError(
        `${name}: expected names, slugs or ids, got ${JSON.stringify(item) ?? String(item)}`,
      );
    }
  }
  if (refs.some((r) => r === 0)) throw new UsageError(`${name}: 0 is not a term id`);
  return refs;
}

function takeText(
  merged: Record<string, unknown>,
  origin: Record<string, string>,
  field: 'date' | 'date_gmt',
): { value: string; name: string } | undefined {
  const value = merged[field];
  delete merged[field];
  if (value === undefined) return undefined;
  const name = origin[field] ?? FIELD_FLAGS[field];
  if (typeof value !== 'string') throw new UsageError(`${name}: expected an ISO 8601 date-time as text`);
  return { value, name };
}
