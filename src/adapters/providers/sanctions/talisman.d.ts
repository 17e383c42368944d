// talisman ships no type declarations; only the metric used here is declared.
declare module 'talisman/metrics/jaro-winkler' {
  /** Jaro-Winkler similarity of two strings, 0 (nothing alike) to 1 (equal). */
  const jaroWinkler: ((a: string, b: string) => number) & { similarity(a: string, b: string): number };
  export default jaroWinkler;
}
