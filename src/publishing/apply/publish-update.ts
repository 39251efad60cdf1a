// A post updated in place on WordPress: only the fields that changed, an editor's body kept when the
// source's did not change, and the marker checked as stored (else exit 6).
import { updatePost, type WpPostDetail } from '../../wordpress/posts.js';
import type { Action } from '../sync/plan.js';
import { siteFailure } from '../publish-failure.js';
import { outcome, prefix, type PublishOutcome } from '../publish-outcome.js';
import type { PlannedPost } from '../sync/publish-plan.js';
import {
  contentToSend,
  markerToSend,
  driftFieldsOf,
  sentValues,
  settleStored,
  statusWarning,
  storeOf,
  type PostContext,
} from './publish-send.js';
import { planSeoWrite, seoFieldsChanged, withTrackedSeo } from './seo-write.js';
import { stampWritten } from '../sync-state.js';

/**
 * The fields that changed, as WordPress's update takes them, and the content always, since its marker
 * changes: the source's body when the body changed, else the site's own (an editor's edits kept) with only
 * the marker replaced. A move is the same update, under the new source's marker.
 */
export async function updateOne(
  planned: PlannedPost,
  action: Extract<Action, { kind: 'update' | 'move' }>,
  ctx: PostContext,
): Promise<PublishOutcome> {
  const { job, marker } = planned;
  const keep = !action.fields.includes('content') && action.post.raw !== undefined && marker;
  const content = await contentToSend(planned, ctx, action.fields.includes('image'), !keep);
  const body: Record<string, unknown> = keep ? {} : { content: content.content };
  for (const field of action.fields) {
    // Sent to the SEO plugin (seo-write.ts); one removed from the source is cleared there.
    if (field === 'content' || field.startsWith('seo_')) continue;
    if (field === 'terms') {
      for (const base of Object.keys(job.kind?.terms?.value ?? {}))
        body[base] = (content as Record<string, unknown>)[base] ?? [];
      continue;
    }
    if (field === 'image') {
      body['featured_media'] = content.featured_media ?? 0;
      continue;
    }
    const value = (content as Record<string, unknown>)[field];
    if (value !== undefined) body[field] = value;
    else {
      // Removed from the source: cleared on the site where WordPress has an empty value for it.
      const cleared = CLEARED[field];
      if (cleared !== undefined) body[field] = cleared;
    }
  }
  if (action.kind === 'update' && action.restore) {
    // Out of the trash with the status the source states (a draft when it states none), and the slug
    // WordPress renamed on trashing (`hello__trashed`) given back.
    body['status'] = content.status ?? (action.post.status === 'trash' ? 'draft' : action.post.status);
    const slug = action.post.slug.replace(/__trashed(?:-\d+)?$/, '');
    if (slug !== action.post.slug) body['slug'] = content.slug ?? slug;
  }
  const seo = await planSeoWrite(planned, ctx, seoFieldsChanged(action.fields));
  if (seo?.meta) body['meta'] = { ...(body['meta'] as Record<string, unknown> | undefined), ...seo.meta };
  // The content kept as the site has it is not the source's: its sum stays what blogctl last sent.
  const sentFields = driftFieldsOf(sentValues(body));
  const written = marker && markerToSend(marker, withTrackedSeo(sentValues(body), seo), action.post.marker);
  if (written) {
    const fields = storeOf(ctx).fieldsFor(
      keep ? action.post.raw! : content.content,
      stampWritten(written, await ctx.wordpress()),
    );
    body['content'] = fields.content;
    if (fields.meta)
      body['meta'] = { ...(body['meta'] as Record<string, unknown> | undefined), ...fields.meta };
  }
  let stored: WpPostDetail;
  try {
    stored = await updatePost(await ctx.wordpress(), action.post.id, body, action.post.type);
  } catch (error) {
    throw siteFailure(error, `updating post ${action.post.id}`, ctx.site);
  }
  if (written) {
    const lost = storeOf(ctx).lost(stored, written);
    if (lost) throw lost;
  }
  const done = outcome(
    job,
    action.kind === 'move' && action.post.formerNamespace === undefined ? 'moved' : 'updated',
    {
      id: String(stored.id),
      link: stored.link ?? action.post.link ?? null,
      status: stored.status,
      type: stored.type ?? 'post',
    },
    { fields: action.fields },
  );
  if (action.kind === 'update' && action.restore && action.post.status === 'trash')
    done.notes.push(
      `${prefix(job, ctx.several)}post ${action.post.id}, moved to the trash by --prune, is back with its source: restored (same id and link)`,
    );
  if (action.kind === 'move')
    done.notes.push(
      action.post.formerNamespace === ''
        ? `${prefix(job, ctx.several)}post ${action.post.id}, published without a file, is this source's: it now carries this project's namespace (same id and link)`
        : action.post.formerNamespace === ctx.options.sharedNamespace?.namespace
          ? `${prefix(job, ctx.several)}post ${action.post.id} carried "${action.post.formerNamespace}", the namespace a project of this repository may carry too: it now carries "${ctx.options.namespace ?? ''}", of files outside any project, so no project's run counts it as an orphan (same id and link)`
          : action.post.formerNamespace !== undefined
            ? `${prefix(job, ctx.several)}post ${action.post.id} carried project "${action.post.formerNamespace}"'s namespace (published from inside it without a file): it now carries none, so that project's runs no longer count it as an orphan`
            : `${prefix(job, ctx.several)}post ${action.post.id} moved here from a source that is gone: same id and link`,
    );
  if (action.fields.includes('status') || action.fields.includes('date'))
    statusWarning(done, job, ctx.several);
  if (written)
    await settleStored(
      done,
      stored,
      {
        ...(!keep && { content: content.content }),
        ...(action.fields.includes('meta') && content.meta !== undefined && { meta: content.meta }),
      },
      written,
      ctx,
      prefix(job, ctx.several),
      sentFields,
    );
  if (seo) await seo.finish(done, stored.id, stored);
  return done;
}

/** What a field removed from the source becomes on the site. */
const CLEARED: Record<string, unknown> = {
  excerpt: '',
  password: '',
  template: '',
  featured_media: 0,
  parent: 0,
  menu_order: 0,
  sticky: false,
  format: 'standard',
  categories: [],
  tags: [],
};
