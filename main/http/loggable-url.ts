/** Query parameters whose value is a secret, judged by the name as Express decodes it. */
const SECRET_NAME = /key|token|secret|signature|password/i;

/**
 * The request URL as it may be logged: the value of every query parameter whose decoded name
 * looks like a secret is replaced. Decoded, because Express decodes names too: `?%6bey=<key>`
 * authenticates exactly as `?key=<key>` does. A name that does not decode is redacted as well.
 */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const parameters = url
    .slice(queryAt + 1)
    .split('&')
    .map((parameter) => {
      const equals = parameter.indexOf('=');
      const rawName = equals < 0 ? parameter : parameter.slice(0, equals);
      const name = decodedName(rawName);
      return name === null || SECRET_NAME.test(name) ? `${rawName}=[redacted]` : parameter;
    });
  return `${url.slice(0, queryAt)}?${parameters.join('&')}`;
}

function decodedName(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return null;
  }
}
