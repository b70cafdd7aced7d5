// js-yaml 4 ships no types (and @types/js-yaml is not installed); the tests use only load().
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
