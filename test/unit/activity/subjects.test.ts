import { describe, expect, it } from 'vitest';
import { named, postExcerpt, postSubject, recordSubject } from '../../../main/kernel/activity/subjects.js';

describe('activity subjects', () => {
  it("names a post by its CRM name, else its text's first 48 characters, flattened and cut with …", () => {
    const long = 'Teaser for Thursday:\n the harbour choir joins us live, with three new songs';
    expect(postExcerpt(long)).toBe('Teaser for Thursday: the harbour choir joins us…');
    expect(postExcerpt(long)).toHaveLength(48);
    expect(postExcerpt('  Short  one ')).toBe('Short one');
    expect(postExcerpt('   ')).toBeNull();
    expect(postSubject({ socialPostId: 'sp1', postsvcId: 'pst_1' }, { name: 'Launch', text: long })).toEqual({
      kind: 'post',
      id: 'sp1',
      name: 'Launch',
    });
    expect(postSubject({ postsvcId: 'pst_1', ledgerId: 4 }, { text: long }).id).toBe('pst_1');
    expect(postSubject({ ledgerId: 4 }, {})).toEqual({ kind: 'post', id: 'ledger:4', name: null });
  });

  it('words: quoted titles, guests by name, a plain noun when the name was not at hand', () => {
    expect(named(recordSubject('broadcast', 'b1', 'Harbour live'))).toBe('broadcast “Harbour live”');
    expect(named(recordSubject('guest', 'g1', 'Ada Lovelace'))).toBe('guest Ada Lovelace');
    expect(named(recordSubject('episode', 'cp1', null))).toBe('an episode');
    expect(named(recordSubject('publish', 'pp1', ' '))).toBe('a publish record');
    expect(named(postSubject({ socialPostId: 'sp1' }, {}), 'CRM post')).toBe('a CRM post');
    expect(named(postSubject({ socialPostId: 'sp1' }, { name: 'Launch' }), 'CRM post')).toBe(
      'CRM post “Launch”',
    );
  });
});
