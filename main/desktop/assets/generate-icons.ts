/**
 * Draws the app and tray icons (committed beside this file): a blue disc with a white bridge.
 * Re-run after changing the drawing: `npx tsx main/desktop/assets/generate-icons.ts`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

type Rgba = readonly [number, number, number, number];

const BLUE: Rgba = [31, 111, 235, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const CLEAR: Rgba = [0, 0, 0, 0];

/** Colour at a point of the unit square (0..1 both ways). */
function paint(x: number, y: number): Rgba {
  const dx = x - 0.5;
  const dy = y - 0.5;
  if (dx * dx + dy * dy > 0.48 * 0.48) return CLEAR;
  const deck = y > 0.55 && y < 0.63 && x > 0.16 && x < 0.84;
  const pillar = (x > 0.3 && x < 0.37) || (x > 0.63 && x < 0.7);
  const pillars = pillar && y > 0.26 && y < 0.78;
  // The cable sags from one pillar top (y 0.3) to 0.5 in the middle and back up.
  const cableY = 0.3 + 0.2 * (1 - ((x - 0.5) / 0.165) ** 2);
  const cable = Math.abs(y - cableY) < 0.035 && x > 0.36 && x < 0.64;
  return deck || pillars || cable ? WHITE : BLUE;
}

/** RGBA pixels with 4x4 supersampling for smooth edges. */
function render(size: number): Buffer {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = paint((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          const alpha = colour[3] / 255;
          for (let c = 0; c < 3; c++) sum[c]! += colour[c]! * alpha;
          sum[3]! += colour[3];
        }
      }
      const n = samples * samples;
      const alpha = sum[3]! / n;
      const offset = (py * size + px) * 4;
      for (let c = 0; c < 3; c++)
        pixels[offset + c] = alpha === 0 ? 0 : Math.round(sum[c]! / n / (alpha / 255));
      pixels[offset + 3] = Math.round(alpha);
    }
  }
  return pixels;
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const assetsDir = path.dirname(fileURLToPath(import.meta.url));
for (const [name, size] of [
  ['tray.png', 16],
  ['tray@2x.png', 32],
  ['icon.png', 512],
] as const) {
  writeFileSync(path.join(assetsDir, name), encodePng(size, render(size)));
}
