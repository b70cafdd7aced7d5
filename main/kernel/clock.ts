/** The bridge's one notion of "now": injected everywhere so tests and the sandbox can move time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
