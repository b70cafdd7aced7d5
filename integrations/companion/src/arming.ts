/** How long a first press of a public action stays armed (DESIGN §5.6). */
export const ARM_WINDOW_MS = 5_000;

/**
 * Two-press safety for public actions (post now, end broadcast): a first press arms, a second
 * press of the same button target within 5 s acts. The armed state is what the `armed`
 * feedback shows; `onChange` fires when a target is armed or its window ends.
 */
export class Arming {
  private readonly armed = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly onChange: () => void,
    private readonly windowMs = ARM_WINDOW_MS,
  ) {}

  /** `'armed'` on a first press, `'act'` on a second within the window (which disarms). */
  press(target: string): 'armed' | 'act' {
    const timer = this.armed.get(target);
    if (timer) {
      clearTimeout(timer);
      this.armed.delete(target);
      this.onChange();
      return 'act';
    }
    this.armed.set(
      target,
      setTimeout(() => {
        this.armed.delete(target);
        this.onChange();
      }, this.windowMs),
    );
    this.onChange();
    return 'armed';
  }

  /** Whether `target` is armed; a prefix such as `post_now:` asks about any of its targets. */
  isArmed(targetOrPrefix: string): boolean {
    if (this.armed.has(targetOrPrefix)) return true;
    return (
      targetOrPrefix.endsWith(':') && [...this.armed.keys()].some((key) => key.startsWith(targetOrPrefix))
    );
  }

  clear(): void {
    for (const timer of this.armed.values()) clearTimeout(timer);
    this.armed.clear();
  }
}
