import { useEffect, useState } from 'react';
import { useDebouncedValue } from '../use-debounced-value.js';

/**
 * A filter box kept in the address: the box follows the keys at once, the address (and the query)
 * once typing pauses, and only with text `accepted` (`refused` otherwise). The address changed by
 * Back, a link or a reload puts its value back in the box.
 */
export function useSettledText(
  fromAddress: string,
  accepted: (text: string) => boolean,
  write: (text: string) => void,
): { text: string; setText: (text: string) => void; refused: boolean } {
  const [text, setText] = useState(fromAddress);
  const typed = useDebouncedValue(text.trim());
  const refused = typed !== '' && !accepted(typed);
  useEffect(() => {
    if (refused || typed === fromAddress) return;
    write(typed);
    // Only a settled, new text writes the address; the address changing must not re-run it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed, refused]);
  // Adjusted while rendering (React's pattern for state that follows a prop), not in an effect.
  const [addressValue, setAddressValue] = useState(fromAddress);
  if (addressValue !== fromAddress) {
    setAddressValue(fromAddress);
    if (fromAddress !== typed) setText(fromAddress);
  }
  return { text, setText, refused };
}
