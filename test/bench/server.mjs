// A deliberately small service for the benchmark, run in its own process so none of its work lands on the
// measured CLI. It answers the routes the bench drives as fast as node:http allows, and nothing else:
//   GET    /api/v1/public/get-all-blogs                  → a JSON array built once at start-up
//   DELETE /api/v1/public/delete-blog/<id>               → 200 {"deleted": "<id>"}
//   POST   /api/v1/public/integrations/wordpress/publish → 200 {isPublished: true, id, link, status, type}
//   GET    /__bench/stats, POST /__bench/reset            → request count and first/last arrival (wire rate)
// Anything else is a loud 404 naming the method and path.
//   node test/bench/server.mjs --blogs 20000 --blog-bytes 5000 [--delay-ms 50]
// Prints one line of JSON ({"url", "payloadBytes", "blogs"}) on stdout once listening; exits when its stdin
// closes (the bench is gone) or on SIGTERM.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    blogs: { type: 'string', default: '100' },
    'blog-bytes': { type: 'string', default: '1000' },
    // How long each delete and publish takes to answer, as a real service's would (its own work, WordPress).
    'delay-ms': { type: 'string', default: '0' },
  },
});
const delayMs = Number(values['delay-ms']);
const later = (fn) => (delayMs > 0 ? setTimeout(fn, delayMs) : fn());
const count = Number(values.blogs);
const blogBytes = Number(values['blog-bytes']);

/** One blog shaped like the sandbox's, its content padded so that its JSON is about `bytes` long. */
function makeBlog(i, bytes) {
  const blog = {
    _id: (0x65a0_0000 + i).toString(16).padStart(24, '0'),
    title: `Home espresso, part ${i + 1}: dialling in the grind for a sweeter shot`,
    slug: `home-espresso-part-${i + 1}`,
    excerpt: 'Fresh beans, a steady grind and patient extraction make the difference in every cup.',
    content: '',
    wordCount: 0,
    createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    status: 'generated',
    language: 'English',
    topicKeywords: ['home espresso'],
    targetAudience: 'Developers',
    toneStyle: 'Friendly',
    contentStructure: 'Listicle',
    blogLength: 'Short',
  };
  const room = Math.max(8, bytes - JSON.stringify(blog).length - 7);
  const sentence = 'Fresh beans, a steady grind and patient extraction make the difference in every cup. ';
  blog.content = `<p>${sentence.repeat(Math.ceil(room / sentence.length))}`.slice(0, room) + '</p>';
  blog.wordCount = Math.round(room / 6);
  return blog;
}

const blogs = [];
for (let i = 0; i < count; i++) blogs.push(makeBlog(i, blogBytes));
const payload = Buffer.from(JSON.stringify(blogs));
blogs.length = 0;

const LIST = '/api/v1/public/get-all-blogs';
const DELETE = '/api/v1/public/delete-blog/';
const PUBLISH = '/api/v1/public/integrations/wordpress/publish';
const stats = { count: 0, first: 0, last: 0 };
let postId = 1000;

function counted() {
  const now = performance.now();
  if (!stats.count) stats.first = now;
  stats.last = now;
  stats.count++;
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const reply = (status, body) => {
    const data = Buffer.isBuffer(body) ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
    res.end(data);
  };
  if (req.method === 'GET' && url === LIST) return reply(200, payload);
  if (req.method === 'DELETE' && url.startsWith(DELETE)) {
    counted();
    req.resume();
    return later(() => reply(200, { deleted: decodeURIComponent(url.slice(DELETE.length)) }));
  }
  if (req.method === 'POST' && url === PUBLISH) {
    // Read the whole body before answering, as the service has to.
    req.on('data', () => undefined);
    req.on('end', () => {
      counted();
      const id = ++postId;
      later(() =>
        reply(200, {
          isPublished: true,
          id,
          link: `http://127.0.0.1:9/?p=${id}`,
          status: 'draft',
          type: 'post',
        }),
      );
    });
    return;
  }
  req.resume();
  if (url === '/__bench/stats') return reply(200, stats);
  if (url === '/__bench/reset') {
    Object.assign(stats, { count: 0, first: 0, last: 0 });
    return reply(200, stats);
  }
  reply(404, { message: `bench server: no route for ${req.method} ${url}` });
});
server.keepAliveTimeout = 30_000;

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${port}`, payloadBytes: payload.length, blogs: count })}\n`,
  );
});

// The bench holds our stdin open (a pipe it never writes to); when it is gone, so are we.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
