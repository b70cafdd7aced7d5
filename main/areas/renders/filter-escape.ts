/**
 * A file path as the value of a filter option inside a filtergraph (`subtitles=filename=…`),
 * escaped at both of FFmpeg's levels ("Notes on filtergraph escaping"): first as an option value
 * (`\`, `'` and `:` get a backslash), then as part of the graph (`\`, `'`, `[`, `]`, `,` and `;`).
 * A Windows path is written with forward slashes, which FFmpeg reads there too: its drive's colon is
 * then the only character that needs the first level.
 */
export function filterPath(file: string, platform: NodeJS.Platform = process.platform): string {
  const slashed = platform === 'win32' ? file.replaceAll('\\', '/') : file;
  const optionValue = slashed.replace(/[\\':]/g, (char) => `\\${char}`);
  return optionValue.replace(/[\\'[\],;]/g, (char) => `\\${char}`);
}
