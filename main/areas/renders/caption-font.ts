import { createRequire } from 'node:module';
import path from 'node:path';
import { outsideAsar } from '../../kernel/media-tools.js';

/**
 * The font captions are burned in with, shipped with the app: DejaVu Sans Bold from the
 * `dejavu-fonts-ttf` package — TrueType (libass reads no WOFF), wide Unicode coverage (accents,
 * Greek, Cyrillic), and a permissive licence whose file stays in the package.
 */
export const CAPTION_FONT = {
  family: 'DejaVu Sans',
  file: 'DejaVuSans-Bold.ttf',
  license: 'Bitstream Vera Fonts licence, DejaVu changes in the public domain (dejavu-fonts-ttf/LICENSE)',
} as const;

/** The folder libass loads it from (`fontsdir`): outside a packaged app's archive, where FFmpeg can read it. */
export function captionFontsDir(): string {
  const file = createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${CAPTION_FONT.file}`);
  return outsideAsar(path.dirname(file));
}
