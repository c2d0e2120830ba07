// Minimal Cookie header parser: services need to read three cookies, not a dependency for it.

/** Parses a Cookie header; the first occurrence of a name wins, undecodable values are kept raw. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name === '' || cookies.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      cookies.set(name, decodeURIComponent(value));
    } catch {
      cookies.set(name, value);
    }
  }
  return cookies;
}

/** One cookie from a request-like object (express or node). */
export function readCookie(
  req: { headers: { cookie?: string | undefined } },
  name: string,
): string | undefined {
  return parseCookies(req.headers.cookie).get(name);
}
