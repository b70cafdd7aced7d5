import { useSearchParams } from '../hash-router.js';

/**
 * The item a link addressed on a list page (`#/recorder?take=<id>`, `#/posts?post=<key>`, …): the
 * production's page and the header's search open the very item, not just its page.
 */
export function useAddressedItem(param: string): string | null {
  const [params] = useSearchParams();
  return params.get(param);
}

/** What an addressed item carries: it scrolls to the middle of the view when drawn, and says it is the current one. */
export function addressedItemProps(addressed: boolean): {
  ref: ((item: Element | null) => void) | undefined;
  'aria-current': 'true' | undefined;
} {
  return { ref: addressed ? scrollIntoCenter : undefined, 'aria-current': addressed ? 'true' : undefined };
}

const scrollIntoCenter = (item: Element | null) => item?.scrollIntoView({ block: 'center' });
