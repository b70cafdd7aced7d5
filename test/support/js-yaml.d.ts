// js-yaml 4 (installed with eslint) ships no types; the tests use only load().
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
