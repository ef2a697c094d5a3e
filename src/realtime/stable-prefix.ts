/**
 * LocalAgreement-2 for live partial text: each new decode of the growing speech window is a hypothesis; a
 * word is released only once two consecutive hypotheses agree on it and on every word before it, and only
 * when the hypothesis still starts with every word released so far. Released words are never taken back.
 */
export class StablePrefix {
  private previous: string[] = [];
  private readonly released: string[] = [];

  /** Feeds one hypothesis; answers the words it releases (often none). */
  update(hypothesis: readonly string[]): string[] {
    let agreed = 0;
    while (agreed < hypothesis.length && agreed < this.previous.length && hypothesis[agreed] === this.previous[agreed])
      agreed += 1;
    this.previous = [...hypothesis];
    if (agreed <= this.released.length) return [];
    if (!this.released.every((word, i) => hypothesis[i] === word)) return [];
    const fresh = hypothesis.slice(this.released.length, agreed);
    this.released.push(...fresh);
    return fresh;
  }

  /** Every word released so far, in order. */
  get text(): string {
    return this.released.join(' ');
  }

  /** The words released so far (a copy). */
  get words(): string[] {
    return [...this.released];
  }

  get count(): number {
    return this.released.length;
  }

  /** The last word released, if any. */
  get last(): string | undefined {
    return this.released.at(-1);
  }
}
