// Extracts a short, human message from an error body: JSON `message`/`error`/`errors` (service style),
// WordPress `{code, message}`, or a cleaned snippet of anything else. An HTML page never reaches the user as HTML.

const MAX = 300;

export interface PeerMessage {
  message?: string;
  code?: string;
}

export function extractPeerMessage(text: string, contentType: string | undefined): PeerMessage {
  const trimmed = text.trim();
  if (!trimmed) return {};
  const looksJson = /json/i.test(contentType ?? '') || trimmed.startsWith('{') || trimmed.startsWith('[');
  if (looksJson) {
    try {
      return fromJson(JSON.parse(trimmed));
    } catch {
      // Not JSON after all: fall through to the text cleaner.
    }
  }
  return { message: cleanSnippet(trimmed) };
}

function fromJson(body: unknown): PeerMessage {
  if (typeof body === 'string') return { message: clip(body) };
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  const code = typeof b['code'] === 'string' ? b['code'] : undefined;
  const parts: string[] = [];
  const push = (v: unknown): void => {
    if (typeof v === 'string' && v.trim()) parts.push(v.trim());
    else if (Array.isArray(v)) v.forEach(push);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const inner = o['message'] ?? o['msg'] ?? o['error'];
      const field = o['field'] ?? o['path'] ?? o['param'];
      if (typeof inner === 'string') parts.push(field ? `${String(field)}: ${inner}` : inner);
    }
  };
  push(b['message']);
  if (!parts.length) push(b['error']);
  push(b['errors']);
  const unique = [...new Set(parts)];
  return { ...(unique.length && { message: clip(unique.join('; ')) }), ...(code && { code }) };
}

export function cleanSnippet(text: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1];
  const source = title ?? h1 ?? text;
  const plain = source
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#0?39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clip(plain);
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX ? `${one.slice(0, MAX - 1)}…` : one;
}
