// A post's SEO fields (front matter `seo:`, blogctl.yml `defaults.seo`) written to the SEO plugin the site
// runs, with the post's own write: Yoast's keys in the same request's `meta` (a second request would be a
// second save of the post, which the companion plugin counts as an edit after blogctl's), Rank Math's and
// AIOSEO's through their own routes right after it (they store outside the post: no save). What must stay
// true: a field the site cannot take is never sent and never reported as sent (a warning names it and why);
// a field is reported as written only when the plugin's stored value, read back, is the one sent.
import { InterruptedError } from '../../errors.js';
import { siteFailure } from '../publish-failure.js';
import { prefix, type PublishOutcome } from '../publish-outcome.js';
import type { PlannedPost } from '../sync/publish-plan.js';
import type { PostContext } from './publish-send.js';
import type { WpPostDetail } from '../../wordpress/posts.js';
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
  /** After the post's write: the plugin's own routes, the read-back, and what the outcome says. */
  finish(done: PublishOutcome, postId: number, stored: WpPostDetail | undefined): Promise<void>;
}

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
  const asked: SeoFields = {};
  for (const field of SEO_FIELDS)
    if (all?.[field] !== undefined && (!only || only.includes(field)))
      (asked as Record<string, unknown>)[field] = all[field];
  if (!Object.keys(asked).length || ctx.options.serviceOnly) return undefined;
  const support = await siteSupport(ctx);
  const by = prefix(planned.job, ctx.several);
  const sending: SeoFields = {};
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
  return {
    ...(plugin === 'yoast' && fields.length && { meta: seoMeta('yoast', sending) }),
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
            await writeSeo(client, plugin, postId, sending, { readBack: false });
          } catch (error) {
            throw siteFailure(error, `writing the SEO fields of post ${postId}`, ctx.site);
          }
        // A read-back that fails leaves the fields unchecked (said below): the post itself is written.
        back = await readSeo(client, plugin, postId).catch((error: unknown) => {
          if (error instanceof InterruptedError) throw error;
          return undefined;
        });
      }
      const kept = fields.filter((f) => back !== undefined && back[f] === sending[f]);
      const lost = fields.filter((f) => !kept.includes(f));
      if (kept.length)
        done.notes.push(`${by}SEO fields written to ${PLUGIN_NAMES[plugin]}: ${kept.join(', ')}`);
      for (const field of lost)
        done.warnings.push(
          back === undefined
            ? `${by}seo.${field}: ${PLUGIN_NAMES[plugin]} could not be read back, so it is unchecked`
            : `${by}seo.${field}: ${PLUGIN_NAMES[plugin]} stored ${JSON.stringify(back[field] ?? null)}, not what was sent`,
        );
    },
  };
}
