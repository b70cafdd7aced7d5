/**
 * The take's file as a URL, from the path OBS reported (POSIX, a Windows drive, or a UNC share):
 * each segment percent-encoded as UTF-8, a drive letter kept as `C:` (RFC 8089). `fileUrl` is
 * OTIO's ExternalReference target_url (`file:///…`); `fcpPathUrl` FCP7's pathurl, which names the
 * host: `file://localhost/…` (a share: `file://server/…`).
 */
interface ParsedPath {
  host: string | null;
  segments: string[];
}

function parse(path: string): ParsedPath {
  const unc = /^[\\/]{2}([^\\/]+)[\\/](.*)$/.exec(path);
  if (unc && path.includes('\\')) return { host: unc[1]!, segments: unc[2]!.split(/[\\/]/) };
  const drive = /^([A-Za-z]):[\\/](.*)$/.exec(path);
  if (drive) return { host: null, segments: [`${drive[1]!.toUpperCase()}:`, ...drive[2]!.split(/[\\/]/)] };
  return { host: null, segments: path.replace(/^\/+/, '').split('/') };
}

const encode = (segments: readonly string[]) =>
  segments
    .map((segment, i) => (i === 0 && /^[A-Z]:$/.test(segment) ? segment : encodeURIComponent(segment)))
    .join('/');

export function fileUrl(path: string): string {
  const { host, segments } = parse(path);
  return `file://${host ?? ''}/${encode(segments)}`;
}

export function fcpPathUrl(path: string): string {
  const { host, segments } = parse(path);
  return `file://${host ?? 'localhost'}/${encode(segments)}`;
}
