/** The session's audio not yet committed: 16 kHz samples addressed by their index since the session began. */
export class SampleBuffer {
  private data = new Int16Array(16_000);
  private used = 0;
  /** Index (since the session began) of the first sample held. */
  start = 0;

  get end(): number {
    return this.start + this.used;
  }

  get length(): number {
    return this.used;
  }

  append(samples: Int16Array): void {
    if (this.used + samples.length > this.data.length) {
      const grown = new Int16Array(Math.max(this.data.length * 2, this.used + samples.length));
      grown.set(this.data.subarray(0, this.used));
      this.data = grown;
    }
    this.data.set(samples, this.used);
    this.used += samples.length;
  }

  /** A copy of the samples from index `from` to `to` (clamped to what is held). */
  slice(from: number, to: number): Int16Array {
    const a = Math.max(0, Math.min(this.used, from - this.start));
    const b = Math.max(a, Math.min(this.used, to - this.start));
    return this.data.slice(a, b);
  }

  /** Forgets every sample before index `index`. */
  dropBefore(index: number): void {
    const drop = Math.max(0, Math.min(this.used, index - this.start));
    if (drop === 0) return;
    this.data.copyWithin(0, drop, this.used);
    this.used -= drop;
    this.start += drop;
  }

  /** Forgets everything; the next sample keeps counting from the end. */
  clear(): void {
    this.start = this.end;
    this.used = 0;
  }
}
