// A stand-in for the service that answers a publish in the spec's other documented shape and nothing more:
// `{success, postUrl, postId}` (4.2 rule 4), as the sandbox's alt shape does, in a server of its own that
// records each answer and refuses every other request. The post really is created: the request is relayed to the WordPress named in its credentials through the
// sandbox's relay. Any other request gets a loud 404 naming the method and path, and is recorded.
import { createServer, type Server } from 'node:http';
import { relayPublish } from '../../src/sandbox/relay.js';
import type { PublishRequest } from '../../src/schemas/wordpress-publish.js';
import { listenLocal } from './http-server.js';

const PUBLISH_PATH = '/api/v1/public/integrations/wordpress/publish';

export interface BareAltService {
  url: string;
  /** Bodies the service answered with, in order. */
  answers: Record<string, unknown>[];
  unexpected: string[];
  close(): Promise<void>;
}

export async function startBareAltService(): Promise<BareAltService> {
  const answers: Record<string, unknown>[] = [];
  const unexpected: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method !== 'POST' || path !== PUBLISH_PATH) {
        unexpected.push(`${req.method} ${req.url}`);
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end(`bare alt service: unexpected request ${req.method} ${req.url}`);
        return;
      }
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as PublishRequest;
      relayPublish(request, { timeoutMs: 30_000, shape: 'alt' }).then(
        (relayed) => {
          const answer = relayed['success']
            ? { success: true, postUrl: relayed['postUrl'], postId: relayed['postId'] }
            : relayed;
          answers.push(answer);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer));
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`bare alt service: ${(error as Error).message}`);
        },
      );
    });
  });
  const { url, close } = await listenLocal(server);
  return { url, answers, unexpected, close };
}
