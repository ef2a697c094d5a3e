/** A radix-2 FFT with its twiddle factors computed once, for the aligner's spectral features. */
export class Fft {
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly reversed: Uint32Array;

  constructor(readonly size: number) {
    if (size < 2 || (size & (size - 1)) !== 0) throw new TypeError(`Expected a power-of-two size, got ${size}`);
    this.cos = new Float64Array(size / 2);
    this.sin = new Float64Array(size / 2);
    for (let k = 0; k < size / 2; k++) {
      this.cos[k] = Math.cos((-2 * Math.PI * k) / size);
      this.sin[k] = Math.sin((-2 * Math.PI * k) / size);
    }
    this.reversed = new Uint32Array(size);
    const bits = Math.log2(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) if (i & (1 << b)) r |= 1 << (bits - 1 - b);
      this.reversed[i] = r;
    }
  }

  /** Transforms `re` + i·`im` in place. */
  transform(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    if (re.length !== n || im.length !== n)
      throw new TypeError(`Expected arrays of ${n}, got ${re.length} and ${im.length}`);
    for (let i = 0; i < n; i++) {
      const j = this.reversed[i];
      if (i < j) {
        const r = re[i];
        re[i] = re[j]!;
        re[j] = r;
        const m = im[i];
        im[i] = im[j]!;
        im[j] = m;
      }
    }
    for (let size = 2; size <= n; size <<= 1) {
      const half = size >> 1;
      const stride = n / size;
      for (let start = 0; start < n; start += size) {
        for (let k = 0; k < half; k++) {
          const cos = this.cos[k * stride];
          const sin = this.sin[k * stride];
          const a = start + k;
          const b = a + half;
          const tr = re[b] * cos - im[b] * sin;
          const ti = re[b] * sin + im[b] * cos;
          re[b] = re[a] - tr;
          im[b] = im[a] - ti;
          re[a] = re[a] + tr;
          im[a] = im[a] + ti;
        }
      }
    }
  }
}
