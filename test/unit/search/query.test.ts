import { describe, expect, it } from 'vitest';
import { holdsText, namesEpisode, readQuery } from '../../../main/areas/search/query.js';

/** How the search reads what is typed (issue #42.3): the episode asked for, and names that say it. */
describe('a search text', () => {
  it('asks for an episode when it reads as one', () => {
    for (const text of [
      'episode 12',
      'Episode 12',
      'ep 12',
      'Ep. 12',
      'ep12',
      '#12',
      'where is episode 12?',
    ]) {
      expect(readQuery(text).episode, text).toBe(12);
    }
    for (const text of ['episode', '12 rules', 'the studio hour 12', 'episode twelve']) {
      expect(readQuery(text).episode, text).toBeNull();
    }
    expect(readQuery('  local   radio ').text).toBe('local radio');
  });

  it('finds episode 12 in names that say 12 as a number of its own, not inside another', () => {
    for (const name of [
      'The Studio Hour #12: Local Radio',
      'The Studio Hour #12 Live',
      '20261212_The_Studio_Hour_12_Local_Radio',
      '20261201 episode 12 Nadia Haddad',
      'Ep12 master',
    ]) {
      expect(namesEpisode(name, 12), name).toBe(true);
    }
    for (const name of [
      'The Studio Hour #120: Later',
      'The Studio Hour #1: Building',
      '20261212_The_Studio_Hour_3_Why',
      '20261201_Rehearsal_T12',
      'Episode 112',
    ]) {
      expect(namesEpisode(name, 12), name).toBe(false);
    }
  });

  it('matches text with case, spaces and underscores alike', () => {
    const query = readQuery('local radio');
    expect(holdsText('20261212_The_Studio_Hour_12_Local_Radio', query)).toBe(true);
    expect(holdsText('LOCAL RADIO, global reach', query)).toBe(true);
    expect(holdsText('Localradio', query)).toBe(false);
  });
});
