/**
 * Which redirect URIs a dynamically registered client may use (OAuth 2.1 section 1.5 and 8.4.2,
 * RFC 8252, the MCP authorization specification): `https` anywhere; `http` only on a loopback
 * host, where the code never leaves the machine; a native app's private-use scheme in
 * reverse-domain form (`com.example.app:/callback`). Anything else could hand an authorization
 * code to whoever can read plain HTTP on the way, or to a script.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Answers why `uri` may not be registered, or null when it may. */
export function redirectUriRefusal(uri: string): string | null {
  const parsed = URL.parse(uri);
  if (!parsed) return `"${uri}" is not an absolute URI`;
  if (parsed.hash || uri.includes('#')) return `"${uri}" has a fragment; a redirect URI must not`;
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(parsed.hostname) ? null
      : `"${uri}" uses http on ${parsed.hostname}; http is allowed only on a loopback host (127.0.0.1, [::1], localhost), anything else needs https`;
  }
  const scheme = parsed.protocol.slice(0, -1);
  // RFC 8252 7.1: private-use schemes are reverse domain names, so they contain a dot.
  return scheme.includes('.') ? null : `"${uri}" uses the ${scheme} scheme; use https, http on a loopback host, or a reverse-domain private-use scheme`;
}
