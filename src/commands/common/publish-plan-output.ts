// What a dry run prints: the plan's rows in a run's columns (TSV when piped) or JSON, and the conflicts that
// fail it as the real run would.
import { BlogctlError, ExitCode } from '../../errors.js';
import type { Deps } from '../../factory.js';
import type { JsonOutput } from '../../output/json.js';
import { orphanName } from '../../publishing/apply/orphan-name.js';
import type { Plan } from '../../publishing/sync/publish-plan.js';
import { withImageUrls } from '../../publishing/sources/content-tokens.js';
import { groupedLines, itemMessage } from '../../output/group.js';
import { orphanFate, plannedMessages } from '../../publishing/sync/plan-messages.js';
import {
  BATCH_COLUMNS,
  BATCH_TABLE_COLUMNS,
  outOfStep,
  printNotes,
  printRows,
  type ExitOptions,
} from './publish-output.js';
import type { BatchRow, PlanRow } from './publish-rows.js';

/** The plan's rows: what would happen to each source, then to each orphan. */
export function planRows(plan: Plan, update: boolean, prune = false, force = false): PlanRow[] {
  const rows = plan.posts.map(({ job, action }): PlanRow => {
    const post = 'post' in action ? action.post : undefined;
    const kind = (action.kind === 'update' || action.kind === 'move') && !update ? 'changed' : action.kind;
    const body: Record<string, unknown> = { ...job.draft.content };
    if (job.draft.categories) body['categories'] = job.draft.categories;
    if (job.draft.tags) body['tags'] = job.draft.tags;
    if (job.featuredImage) body['featured_image'] = job.featuredImage.path;
    // Inline images as the source names them: their URLs are known only once the run sends the post.
    if (job.images && typeof body['content'] === 'string')
      body['content'] = withImageUrls(body['content'], new Map(job.images.map((i) => [i.sum, i.ref])));
    return {
      source: job.name,
      action: kind,
      id: post ? String(post.id) : null,
      link: post?.link ?? null,
      status: post?.status ?? null,
      ...((action.kind === 'update' || action.kind === 'move') && { fields: action.fields }),
      ...('edited' in action && action.edited && { edited: action.edited }),
      ...(action.kind === 'conflict' && action.fields && { edited: action.fields }),
      ...((kind === 'create' || kind === 'update' || kind === 'move') && { post: body }),
    };
  });
  return [
    ...rows,
    ...plan.orphans.map((post): PlanRow => ({
      source: orphanName(post),
      action: orphanFate(post, { prune, force }).prune ? 'prune' : 'orphaned',
      id: String(post.id),
      link: post.link ?? null,
      status: post.status,
    })),
  ];
}

/** A plan's row in a run's columns: the action it would take, the post it would touch. */
function planBatchRow(row: PlanRow): BatchRow {
  return {
    source: row.source,
    action: row.action as BatchRow['action'],
    published: row.id !== null,
    id: row.id,
    link: row.link,
    status: row.status,
    type: null,
    ...(row.fields && { fields: row.fields }),
    ...(row.edited && { edited: row.edited }),
  };
}

/** A dry run: the plan as a table (TSV when piped) or JSON; a conflict fails as the real run would. */
export async function printPlan(
  deps: Pick<Deps, 'io' | 'globals'>,
  json: JsonOutput,
  plan: Plan,
  options: ExitOptions & { update: boolean; prune?: boolean; force?: boolean; excluded?: PlanRow[] },
): Promise<void> {
  const { io } = deps;
  const rows = planRows(plan, options.update, options.prune, options.force);
  // What the project's exclusion left out: named on stderr (before the table), and in JSON as rows of their own.
  const excluded = options.excluded ?? [];
  if (options.rowsShown) {
    // Printed already.
  } else if (json.enabled) json.print(io, [...rows, ...excluded]);
  else if (deps.globals.quiet) {
    const pending = rows.filter((r) => r.action !== 'unchanged').map((r) => r.source);
    if (pending.length) io.out(pending.join('\n'));
  } else
    // The columns of a real run, so a script reads a plan and a run alike.
    await printRows(io, BATCH_COLUMNS, rows.map(planBatchRow), BATCH_TABLE_COLUMNS);
  const counts = new Map<string, number>();
  for (const r of [...rows, ...excluded]) counts.set(r.action, (counts.get(r.action) ?? 0) + 1);
  // The inline images the site lacks, each named as its first source writes it.
  for (const image of plan.uploads ?? []) io.note(`upload ${image.ref} (${image.at})`);
  io.note(`dry run: nothing was sent (${[...counts].map(([a, n]) => `${n} ${a}`).join(', ')})`);
  // What the run would say of each post before sending it (plannedMessages), said here the same way.
  const several = plan.posts.length > 1 || plan.orphans.length > 0;
  const said = plan.posts.map((p) => ({
    source: p.job.name,
    ...plannedMessages(p, several, options.update),
  }));
  const orphans = plan.orphans.map((post) => ({
    source: orphanName(post),
    warnings: [],
    notes: [
      orphanFate(post, options).note.replace(
        "moved to WordPress's trash",
        "would be moved to WordPress's trash",
      ),
    ],
  }));
  printNotes(io, [...said, ...orphans]);
  const refused = said.filter((m) => m.error);
  if (refused.length === 1 && plan.posts.length === 1) throw refused[0]!.error!;
  if (refused.length) {
    const first = refused[0]!;
    const names =
      refused
        .slice(0, 10)
        .map((m) => m.source)
        .join(', ') + (refused.length > 10 ? ', …' : '');
    throw new BlogctlError(
      'rejected',
      ExitCode.rejected,
      `${refused.length} of ${plan.posts.length} posts would not be published (${names}): ${first.source}: ${first.error!.message}`,
      {
        details: groupedLines(
          refused.map((m) => itemMessage(m.source, m.error!.message)),
          'source',
        ).slice(0, 10),
      },
    );
  }
  const left = outOfStep(rows, options, true);
  if (left) throw left;
}
