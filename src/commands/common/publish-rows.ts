// What a publish reports of each post, as printed and as --json shapes it: one post's view, a batch's row,
// a dry run's row, and the fields of each.
import { fieldsOf } from '../../output/json.js';
import type { PublishOutcome } from '../../publishing/publish-outcome.js';

/** One post's result. */
export interface PublishView {
  /**
   * created, updated, moved (an orphan's post taken by a moved source), unchanged, changed (left:
   * --no-update), trashed (left in the trash), orphaned (source gone, post left), pruned (source gone, post
   * trashed: --prune), failed.
   */
  action: PublishOutcome['state'];
  /** The source's post is on the site (created, updated, moved, unchanged, or changed and left). */
  published: boolean;
  id: string | null;
  link: string | null;
  /** The status WordPress gave the post. */
  status: string | null;
  type: string | null;
  /** The fields that differed (updated, changed). */
  fields?: string[];
  /** Only when WordPress gave another status than the one asked for. */
  requestedStatus?: string;
  /** Fields an editor changed on the site since blogctl sent them, kept as they are. */
  edited?: string[];
}

/** A batch row: the source and how it went, then the post. */
export interface BatchRow extends PublishView {
  source: string;
  error?: string;
  exitCode?: number;
}

/** A dry run's row: what a publish would do. */
export interface PlanRow {
  source: string;
  /**
   * create, update, move (an orphan's post takes this source: same id and link), unchanged, changed
   * (--no-update), trashed, conflict, orphaned (a post whose source is gone), prune (it would go to the trash),
   * excluded (a file or folder of the project left out by its exclusion: README*, `exclude:`).
   */
  action:
    | 'create'
    | 'update'
    | 'move'
    | 'unchanged'
    | 'changed'
    | 'trashed'
    | 'conflict'
    | 'orphaned'
    | 'prune'
    | 'excluded';
  id: string | null;
  link: string | null;
  status: string | null;
  fields?: string[];
  /** Fields an editor changed on the site (kept; with `conflict`, the source changed them too). */
  edited?: string[];
  /** The post's fields as they would be sent (names of terms and image files as given). */
  post?: Record<string, unknown>;
}

const SINGLE_FIELD_SET: { [K in keyof PublishView]-?: true } = {
  action: true,
  published: true,
  id: true,
  link: true,
  status: true,
  type: true,
  fields: true,
  requestedStatus: true,
  edited: true,
};

export const SINGLE_FIELDS = fieldsOf<PublishView>(SINGLE_FIELD_SET);

/** The fields of each row of a batch's JSON; also how `--json <file>` is told apart from `--json <fields>`. */
export const OUTPUT_FIELDS = fieldsOf<BatchRow>({
  source: true,
  ...SINGLE_FIELD_SET,
  error: true,
  exitCode: true,
});

export const PLAN_FIELDS = fieldsOf<PlanRow>({
  source: true,
  action: true,
  id: true,
  link: true,
  status: true,
  fields: true,
  edited: true,
  post: true,
});

export function publishView(outcome: PublishOutcome): PublishView {
  const post = outcome.post;
  const status = post?.status ?? null;
  return {
    action: outcome.state,
    published: !['failed', 'trashed', 'orphaned', 'pruned'].includes(outcome.state),
    id: post?.id ?? null,
    link: post?.link ?? null,
    status,
    type: post?.type ?? null,
    ...(outcome.fields && { fields: outcome.fields }),
    ...((outcome.state === 'created' || outcome.state === 'updated') &&
      status !== null &&
      status !== outcome.requestedStatus && { requestedStatus: outcome.requestedStatus }),
    ...(outcome.edited && { edited: outcome.edited }),
  };
}

export function batchRow(outcome: PublishOutcome): BatchRow {
  return {
    source: outcome.source,
    ...publishView(outcome),
    ...(outcome.error && { error: outcome.error.message, exitCode: outcome.error.exitCode }),
  };
}
