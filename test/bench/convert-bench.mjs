// The hostile-post row of `npm run bench` (run by run-all.mjs after pull-bench.mjs, with the same arguments):
// `wp pull` of a site whose one post is 400 KB of what any Author can save, shaped to be slow to convert
// (issue 32 item 4: "a 400 KB hostile post converts in under a second"), against two baselines pulled in the
// same run: a site whose one post is 2 KB (the floor: starting the CLI, the requests, writing one file) and
// one whose post is 400 KB of prose with links, as a person writes (a long post converted to Markdown). Each
// shape's pull time is shown with how much it takes over the floor (the conversion), and as a ratio to the
// long post. The goal: every shape within a second of the floor. The shapes are the slowest found for each
// limit in src/lib/html-to-markdown.ts and src/publishing/pull/pull-body.ts (elements, blank stretches,
// brackets in a paragraph), just under or far over it. No figure ever fails the run; a pull that errors does.
//
//   node test/bench/convert-bench.mjs [--quick] [--only ...,convert,...] [--runs N]
// Other bench.mjs arguments are accepted and ignored. Figures go to .bench/convert-results-node<major>.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median, pullOnce, startSite, stopSite } from './pull-site.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const { values: flags } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, runs: { type: 'string' } },
  strict: false,
});
if (flags.only !== undefined && !String(flags.only).split(',').includes('convert')) process.exit(0);
const runs = Number(flags.runs ?? (flags.quick ? 1 : 3));

const SIZE = 400_000;
/** `unit` repeated to SIZE characters (then `filler` after `count` units, when given). */
const repeated = (unit, count = Math.ceil(SIZE / unit.length), filler = '') => {
  const head = unit.repeat(count);
  const rest = Math.max(0, SIZE - head.length);
  return head + (filler ? filler.repeat(Math.ceil(rest / filler.length)).slice(0, rest) : '');
};
const nested = (open, close, depth) => repeated(`${open.repeat(depth)}x${close.repeat(depth)}`);
const sentence =
  'Fresh beans, a steady grind and <a href="https://example.com/x">patient extraction</a> matter. ';

const baselines = [
  ['a 2 KB post (the floor)', `<p>${sentence.repeat(20).trim()}</p>\n`],
  ['400 KB of prose with links', repeated(`<p>${sentence.repeat(5).trim()}</p>\n`)],
];
const shapes = [
  ['unclosed <p>', repeated('<p>')],
  ['unclosed <li>a', repeated('<li>a')],
  ['<b> nested 40 deep', nested('<b>', '</b>', 40)],
  ['divs nested 40 deep', nested('<div>', '</div>', 40)],
  ['empty <i></i>', repeated('<i></i>')],
  ['<b>x</b>_ ×9,982, then _a_', repeated('<b>x</b>_', 9_982, '_a_ ')],
  ['<li>[a *b_ ×9,942, then _a_', repeated('<li>[a *b_ ', 9_942, '_a_ ')],
  ['<em>a</em> ×9,940, then _a_', repeated('<em>a</em> ', 9_940, '_a_ ')],
  ['text: _a_', repeated('_a_ ')],
  ['text: [a *b_', repeated('[a *b_ ')],
  ['a run of <', repeated('<')],
  ['links in one paragraph', repeated('<a href=x>aaaaaaaaaa</a>')],
  ['images in one paragraph', repeated('<img src=x>')],
  ['<br> ×9,960, then a word', repeated('<br>', 9_960, '_a_ ')],
  ['no-break spaces, then a word', `${'\u00a0'.repeat(SIZE)}x`],
  ['a <pre> of spaces, then a word', `<pre>${' '.repeat(SIZE)}x</pre>`],
  ['unclosed block comments', repeated('<!-- wp:paragraph ')],
  ['<span/> (nests: HTML ignores />)', repeated('<span/>')],
  ['<b><div></b> (the adoption agency)', repeated('<b><div></b>')],
  [
    '39 <b>s, then <p>x</p> (made again)',
    `<p>${Array.from({ length: 39 }, (_, i) => `<b class=${i}>`).join('')}</p>${'<p>x</p>'.repeat(49_900)}`,
  ],
];

const work = mkdtempSync(join(tmpdir(), 'blogctl-convert-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const results = [];
for (const [name, html] of [...baselines, ...shapes]) {
  const file = join(work, 'content.html');
  writeFileSync(file, html);
  const server = await startSite(['--unmarked', '1', '--content-file', file]);
  const times = [];
  let body = '';
  for (let i = 0; i < runs; i++) {
    const run = pullOnce(work, server.url, `pull-${results.length}-${i}`);
    if (run.files.length !== 1) {
      process.stderr.write(`convert bench: ${name}: ${run.files.length} files written\n`);
      process.exit(1);
    }
    body = /^body: "html"$/m.test(run.files[0]) ? 'HTML' : 'Markdown';
    times.push(run.ms);
  }
  stopSite(server.child);
  results.push({ name, bytes: Buffer.byteLength(html), ms: median(times), body });
}

const [floor, prose] = results;
const lines = [
  `\nconvert: wp pull of a site whose one post is 400 KB of hostile content (median of ${runs}; over the floor = the conversion)`,
  ...results.map(
    (r, i) =>
      `  ${r.name.padEnd(34)} ${String(Math.round(r.ms)).padStart(6)} ms  ${i === 0 ? '          ' : `+${String(Math.round(r.ms - floor.ms)).padStart(5)} ms`}  ${i < 2 ? '       ' : `${(r.ms / prose.ms).toFixed(2)}x`.padStart(7)}  written as ${r.body}`,
  ),
];
const worst = results.slice(2).reduce((a, b) => (b.ms > a.ms ? b : a));
lines.push(
  `  slowest: ${worst.name}, ${Math.round(worst.ms - floor.ms)} ms over the floor (goal: under 1,000), ${(worst.ms / prose.ms).toFixed(2)}x the long post`,
);
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(join(ROOT, '.bench'), { recursive: true });
writeFileSync(
  join(ROOT, '.bench', `convert-results-node${process.versions.node.split('.')[0]}.json`),
  `${JSON.stringify({ runs, results, worst: worst.name, overFloorMs: worst.ms - floor.ms }, null, 2)}\n`,
);
