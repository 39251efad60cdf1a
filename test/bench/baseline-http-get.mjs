// Baseline for `blog list --json`: the same GET with node:http and nothing else, the body printed as received.
//   node test/bench/baseline-http-get.mjs <url> <api-key>
import { request } from 'node:http';

const [url, key] = process.argv.slice(2);
request(url, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } }, (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => {
    process.stdout.write(Buffer.concat(chunks));
    if (res.statusCode !== 200) process.exitCode = 1;
  });
}).end();
