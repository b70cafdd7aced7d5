import { describe, expect, it } from 'vitest';
import { filterPath } from '../../../main/areas/renders/filter-escape.js';

/**
 * A path inside a filtergraph is escaped twice (FFmpeg's "Notes on filtergraph escaping"): once as
 * the value of a filter's option (`\`, `'`, `:`), then as part of the graph (`\`, `'`, `[`, `]`,
 * `,`, `;`). The render test renders from a data dir holding these characters with real FFmpeg.
 */
describe('filterPath', () => {
  it('leaves a plain path as it is', () => {
    expect(filterPath('/data/renders/rn_1/9x16.ass', 'linux')).toBe('/data/renders/rn_1/9x16.ass');
  });

  it('escapes a colon for the option and its backslash for the graph', () => {
    expect(filterPath('/data/a:b.ass', 'linux')).toBe('/data/a\\\\:b.ass');
  });

  it("escapes a quote at both levels: \\' then \\\\\\'", () => {
    expect(filterPath("/data/it's.ass", 'linux')).toBe("/data/it\\\\\\'s.ass");
  });

  it('escapes what separates filters and names links: , ; [ ]', () => {
    expect(filterPath('/data/a, b; [c].ass', 'linux')).toBe('/data/a\\, b\\; \\[c\\].ass');
  });

  it('keeps a backslash in a POSIX file name as one', () => {
    expect(filterPath('/data/back\\slash.ass', 'linux')).toBe('/data/back\\\\\\\\slash.ass');
  });

  it('writes a Windows path with forward slashes and its drive colon escaped', () => {
    expect(filterPath('C:\\Users\\Ann\\AppData\\renders\\9x16.ass', 'win32')).toBe(
      'C\\\\:/Users/Ann/AppData/renders/9x16.ass',
    );
  });

  it('escapes a Windows path with every special character', () => {
    expect(filterPath("D:\\Clips, Ann's [1]\\x.ass", 'win32')).toBe(
      "D\\\\:/Clips\\, Ann\\\\\\'s \\[1\\]/x.ass",
    );
  });
});
