// A post's SEO fields (front matter `seo:`, blogctl.yml `defaults.seo`) written to the SEO plugin the site
// runs, with the post's own write: Yoast's keys in the same request's `meta` (a second request would be a
// second save of the post, which the companion plugin counts as an edit after blogctl's), Rank Math's and
// AIOSEO's through their own routes right after it (they store outside the post: no save). What must stay
// true: a field the site cannot take is never sent and never reported as sent (a warning names it and why);
// a field is reported as written only when the plugin's stored value, read back, is the one sent.
//
// A field removed from the source (or written `''`) after blogctl sent it is cleared on the site, as a removed
// excerpt is: the plugin's empty value is sent, and the plan names the field. Drift: the marker keeps the sum
// of each SEO field as the plugin stored it (`wp_seo_title`, …) where the look-up can read it again — Yoast's
// and Rank Math's registered keys in the post's meta, AIOSEO's own route (look-up.ts) — so an editor's change
// in the plugin's box is reported and kept like any other field's.
import { InterruptedError } from '../../errors.js';
import { siteFailure } from '../publish-failure.js';
import { prefix, type PublishOutcome } from '../publish-outcome.js';
import type { PlannedPost } from '../sync/publish-plan.js';
import type { PostContext } from './publish-send.js';
import { getPost, updatePost, type WpPostDetail } from '../../wordpress/posts.js';
import { SITE_SUM_PREFIX, storedSums, type StoredValues } from '../sync/drift.js';
import { storeOf } from './publish-send.js';
import { stampWritten } from '../sync-state.js';
import {
  readSeo,
  registeredPostMeta,
  seoFromMeta,
  seoMeta,
  seoSupport,
  writeSeo,
  detectSeoPlugin,
  SEO_FIELDS,
  type SeoField,
  type SeoFields,
  type SeoSupport,
  type SeoValues,
} from '../../wordpress/seo.js';

const PLUGIN_NAMES = { yoast: 'Yoast SEO', rankmath: 'Rank Math', aioseo: 'All in One SEO' } as const;

/** One look at the site per run: its SEO plugin and the fields it takes. */
const supportOf = new WeakMap<PostContext['options'], Promise<SeoSupport>>();

async function siteSupport(ctx: PostContext): Promise<SeoSupport> {
  let support = supportOf.get(ctx.options);
  if (!support) {
    support = (async () => {
      const client = await ctx.wordpress();
      const plugin = detectSeoPlugin(await client.index());
      if (plugin !== 'yoast' && plugin !== 'rankmath') return seoSupport(plugin, undefined);
      return seoSupport(plugin, await registeredPostMeta(client));
    })();
    supportOf.set(ctx.options, support);
  }
  return support;
}

export interface SeoWrite {
  /** Yoast's keys, for the post request's `meta`. */
  meta?: Record<string, unknown>;
  /**
   * The fields sent through the plugin's own route whose stored values the look-up reads again (Rank Math's
   * registered keys, AIOSEO's route): their sums go in the marker written with the post (drift).
   */
  tracked?: SeoFields;
  /** After the post's write: the plugin's own routes, the read-back, and what the outcome says. */
  finish(done: PublishOutcome, postId: number, stored: WpPostDetail | undefined): Promise<void>;
}

/** The values a write sends, with the SEO fields the plugin's own route takes (their sums go in the marker). */
export const withTrackedSeo = (values: StoredValues, seo: SeoWrite | undefined): StoredValues =>
  seo?.tracked && Object.keys(seo.tracked).length
    ? { ...values, seo: { ...values.seo, ...seo.tracked } }
    : values;

/** The SEO fields among a plan's changed fields (`seo_title` → title). */
export const seoFieldsChanged = (fields: readonly string[]): SeoField[] =>
  SEO_FIELDS.filter((f) => fields.includes(`seo_${f}`));

/**
 * What this post's SEO fields become on this site; undefined when the source sets none (or none of `only`,
 * the fields an update changes).
 */
export async function planSeoWrite(
  planned: PlannedPost,
  ctx: PostContext,
  only?: readonly SeoField[],
): Promise<SeoWrite | undefined> {
  const all = planned.job.draft.seo;
  const asked: SeoValues = {};
  for (const field of SEO_FIELDS) {
    if (only && !only.includes(field)) continue;
    const value = all?.[field];
    // In an update's changed fields but not in the source: removed from it, so cleared on the site.
    if (value === undefined && only)
      (asked as Record<string, unknown>)[field] = field === 'noindex' ? null : '';
    else if (value !== undefined) (asked as Record<string, unknown>)[field] = value;
  }
  if (!Object.keys(asked).length || ctx.options.serviceOnly) return undefined;
  const support = await siteSupport(ctx);
  const by = prefix(planned.job, ctx.several);
  const sending: SeoValues = {};
  // Fields left out for one reason are said in one line (`seo.title, seo.description not sent: no SEO plugin`).
  const skippedFor = new Map<string, string[]>();
  for (const field of SEO_FIELDS) {
    if (asked[field] === undefined) continue;
    if (support.writable.includes(field)) (sending as Record<string, unknown>)[field] = asked[field];
    else {
      const why = support.missing[field] ?? 'the site cannot take it';
      skippedFor.set(why, [...(skippedFor.get(why) ?? []), `seo.${field}`]);
    }
  }
  const skipped = [...skippedFor].map(([why, fields]) => `${by}${fields.join(', ')} not sent: ${why}`);
  const plugin = support.plugin;
  const fields = Object.keys(sending) as SeoField[];
  const cleared = (f: SeoField): boolean => sending[f] === '' || sending[f] === null;
  // What the plugin holds once it took `sending`: a cleared field holds nothing.
  const expected: SeoFields = Object.fromEntries(
    fields.filter((f) => !cleared(f)).map((f) => [f, sending[f]]),
  ) as SeoFields;
  const type = planned.job.postType?.slug;
  return {
    ...(plugin === 'yoast' && fields.length && { meta: seoMeta('yoast', sending) }),
    ...(plugin !== undefined && plugin !== 'yoast' && fields.length && { tracked: expected }),
    async finish(done, postId, stored) {
      done.warnings.push(...skipped);
      if (!plugin || !fields.length) return;
      let back: SeoFields | undefined;
      const client = await ctx.wordpress();
      if (plugin === 'yoast' && stored?.meta && !Array.isArray(stored.meta))
        back = seoFromMeta('yoast', stored.meta);
      else {
        if (plugin !== 'yoast')
          try {
            await writeSeo(client, plugin, postId, sending, { readBack: false, ...(type && { type }) });
          } catch (error) {
            throw siteFailure(error, `writing the SEO fields of post ${postId}`, ctx.site);
          }
        // A read-back that fails leaves the fields unchecked (said below): the post itself is written.
        back = await readSeo(client, plugin, postId, type).catch((error: unknown) => {
          if (error instanceof InterruptedError) throw error;
          return undefined;
        });
      }
      const kept = fields.filter((f) => back !== undefined && back[f] === expected[f]);
      const lost = fields.filter((f) => !kept.includes(f));
      const [set, clear] = [kept.filter((f) => !cleared(f)), kept.filter(cleared)];
      if (set.length)
        done.notes.push(`${by}SEO fields written to ${PLUGIN_NAMES[plugin]}: ${set.join(', ')}`);
      if (clear.length)
        done.notes.push(`${by}SEO fields cleared in ${PLUGIN_NAMES[plugin]}: ${clear.join(', ')}`);
      for (const field of lost)
        done.warnings.push(
          back === undefined
            ? `${by}seo.${field}: ${PLUGIN_NAMES[plugin]} could not be read back, so it is unchecked`
            : `${by}seo.${field}: ${PLUGIN_NAMES[plugin]} stored ${JSON.stringify(back[field] ?? null)}, not what was sent`,
        );
      // The marker was written with the sums of what was sent: where the plugin stored otherwise, it is
      // brought to what it stored, else the next run would call the field edited on the site.
      if (plugin !== 'yoast' && lost.length && stored)
        await settleSeoSums(ctx, plugin, postId, stored.type ?? type, back, lost, by, done);
    },
  };
}

/**
 * The `wp_seo_` sums of `fields` in the post's stored state set to what the plugin holds (`back`; dropped
 * when it could not be read): one more write of the post's state, only when the plugin changed a value.
 */
async function settleSeoSums(
  ctx: PostContext,
  plugin: 'rankmath' | 'aioseo',
  postId: number,
  type: string | undefined,
  back: SeoFields | undefined,
  fields: SeoField[],
  by: string,
  done: PublishOutcome,
): Promise<void> {
  const store = storeOf(ctx);
  try {
    const client = await ctx.wordpress();
    const post = await getPost(client, postId, { context: 'edit', ...(type && { type }) });
    const state = store.stateOf(post);
    const raw = post.content?.raw;
    if (!state || raw === undefined) return;
    const sums = { ...state.sums };
    const now = back ? storedSums({ seo: back }) : {};
    for (const field of fields) {
      const name = `${SITE_SUM_PREFIX}seo_${field}`;
      if (now[name] !== undefined) sums[name] = now[name];
      else delete sums[name];
    }
    await updatePost(
      client,
      postId,
      store.fieldsFor(raw, stampWritten({ ...state, sums }, client)),
      post.type ?? type,
    );
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    done.warnings.push(
      `${by}recording what ${PLUGIN_NAMES[plugin]} stored failed (${(error as Error).message}): the next run may call those SEO fields edited on the site`,
    );
  }
}
