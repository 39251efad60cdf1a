// Proxy settings from the environment, read as undici reads them (so an error can say whether a proxy was
// in the way): the lowercase variable wins, https falls back to http_proxy, NO_PROXY has no implicit loopback.

/** The proxy settings in force, or undefined when no proxy is set. Lowercase wins when both are set and non-empty. */
export function proxyEnv(
  env: NodeJS.ProcessEnv,
): { httpProxy: string; httpsProxy: string; noProxy: string } | undefined {
  // Each variable read by name, so a search of the sources (test/commands/help.test.ts) finds them all.
  const first = (...values: (string | undefined)[]): string | undefined =>
    values.map((v) => v?.trim()).find((v): v is string => Boolean(v));
  const httpProxy = first(env['http_proxy'], env['HTTP_PROXY']);
  const httpsProxy = first(env['https_proxy'], env['HTTPS_PROXY']);
  if (!httpProxy && !httpsProxy) return undefined;
  // As undici documents: with only http_proxy set, https URLs go through it too; NO_PROXY has no implicit
  // loopback entry, so a proxy sees requests to 127.0.0.1 unless NO_PROXY names it.
  return {
    // '' rather than undefined, or undici would read process.env itself.
    httpProxy: httpProxy ?? '',
    httpsProxy: httpsProxy ?? '',
    noProxy: first(env['no_proxy'], env['NO_PROXY']) ?? '',
  };
}

export function proxyFor(url: string, proxy: { httpProxy: string; httpsProxy: string }): string | undefined {
  return (url.startsWith('https:') ? proxy.httpsProxy || proxy.httpProxy : proxy.httpProxy) || undefined;
}

/** undici's NO_PROXY rules (host, `.domain` / `*.domain` suffix, optional `:port`; `*` alone), for error hints. */
export function bypassesProxy(url: string, noProxy: string): boolean {
  const u = new URL(url);
  const host = u.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(u.port) || (u.protocol === 'https:' ? 443 : 80);
  if (noProxy.trim() === '*') return true;
  return noProxy
    .split(/[,\s]/)
    .filter(Boolean)
    .some((entry) => {
      const m = /^(.+):(\d+)$/.exec(entry);
      const name = (m ? m[1]! : entry).replace(/^\*?\./, '').toLowerCase();
      if (m && Number(m[2]) !== port) return false;
      return host === name || host.endsWith(`.${name}`);
    });
}
