import { useEffect } from 'react';

/**
 * While `dirty`, leaving asks first: closing or reloading the tab (the browser's own prompt), and
 * following an in-app link (`#/...`: the click is caught before the browser follows the link;
 * hash-router.tsx has no navigation blocker). Going back with the browser's Back button is not caught.
 */
export function useUnsavedChangesGuard(dirty: boolean, question: string): void {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = ''; // older Chromium (Electron) needs it set to show the prompt
    };
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
      if (!link || link.getAttribute('href') === window.location.hash) return;
      if (!window.confirm(question)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    // Capture on the document runs before React's listeners on the root.
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, question]);
}
