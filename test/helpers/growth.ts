/**
 * How a function's time grows with its input, for tests that pin linear parsing: the time per call at size n
 * and at 8n, each the fastest of five rounds of as many calls as fill 20 ms (the fastest, because a busy
 * machine only ever adds time). Linear work grows about 8x, quadratic 64x; a test asserts a bound between
 * them with room for a busy machine's noise, never a time.
 */
export function growthOf<T>(make: (n: number) => T, run: (input: T) => unknown, n: number): number {
  const small = make(n);
  const large = make(GROWTH_FACTOR * n);
  const perCall = (input: T): number => {
    let calls = 0;
    const start = performance.now();
    do {
      run(input);
      calls++;
    } while (performance.now() - start < 20);
    return (performance.now() - start) / calls;
  };
  // A first call of each, so that compiling the code is not measured.
  run(small);
  run(large);
  let [fastestSmall, fastestLarge] = [Infinity, Infinity];
  for (let round = 0; round < 5; round++) {
    fastestLarge = Math.min(fastestLarge, perCall(large));
    fastestSmall = Math.min(fastestSmall, perCall(small));
  }
  return fastestLarge / fastestSmall;
}

export const GROWTH_FACTOR = 8;

/** Linear work measured 8x bigger grows about 8x; quadratic grows 64x. */
export const LINEAR_GROWTH_BOUND = 32;
