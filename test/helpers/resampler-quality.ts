/**
 * How well a resampler keeps what it should and removes what it should, measured with pure tones: each
 * tone goes through, the tone at the same frequency is fitted to the output by least squares, and what is
 * left over is what the filter let through that it should not (images and aliases) plus 16-bit rounding.
 * Shared by the resampler tests and `npm run bench -- resampler`.
 */

/** Resamples a whole signal (in pieces or not, as the caller likes), flush included. */
export type ResampleWhole = (input: Int16Array) => Int16Array;

export interface ToneResponse {
  frequency: number;
  /** Level of the tone out against in, in dB (0 = unchanged). */
  gainDb: number;
  /** The tone's power over everything else in the output, in dB (images, aliases, rounding). */
  rejectionDb: number;
}

/** Amplitude of the test tones: loud, but with headroom for the filter's overshoot. */
const AMPLITUDE = 16_000;

export function toneResponse(
  resample: ResampleWhole,
  inputRate: number,
  outputRate: number,
  frequency: number,
): ToneResponse {
  const input = Int16Array.from({ length: inputRate }, (_, i) =>
    Math.round(AMPLITUDE * Math.sin((2 * Math.PI * frequency * i) / inputRate)),
  );
  const output = resample(input);
  // Away from both ends, where the filter saw silence on one side.
  const from = Math.round(outputRate * 0.1);
  const to = output.length - from;
  let ss = 0;
  let cc = 0;
  let sc = 0;
  let ys = 0;
  let yc = 0;
  for (let j = from; j < to; j++) {
    const angle = (2 * Math.PI * frequency * j) / outputRate;
    const s = Math.sin(angle);
    const c = Math.cos(angle);
    ss += s * s;
    cc += c * c;
    sc += s * c;
    ys += output[j] * s;
    yc += output[j] * c;
  }
  const det = ss * cc - sc * sc;
  const a = (ys * cc - yc * sc) / det;
  const b = (yc * ss - ys * sc) / det;
  let tone = 0;
  let rest = 0;
  for (let j = from; j < to; j++) {
    const angle = (2 * Math.PI * frequency * j) / outputRate;
    const fitted = a * Math.sin(angle) + b * Math.cos(angle);
    tone += fitted * fitted;
    rest += (output[j] - fitted) ** 2;
  }
  return {
    frequency,
    gainDb: 20 * Math.log10(Math.hypot(a, b) / AMPLITUDE),
    rejectionDb: 10 * Math.log10(tone / Math.max(rest, 1e-9)),
  };
}

/** Output level, in dB against the input tone, of a tone the filter must remove (above the output's Nyquist). */
export function stopbandLevelDb(
  resample: ResampleWhole,
  inputRate: number,
  outputRate: number,
  frequency: number,
): number {
  const input = Int16Array.from({ length: inputRate }, (_, i) =>
    Math.round(AMPLITUDE * Math.sin((2 * Math.PI * frequency * i) / inputRate)),
  );
  const output = resample(input);
  const from = Math.round(outputRate * 0.1);
  let sum = 0;
  for (let j = from; j < output.length - from; j++) sum += output[j] ** 2;
  const rms = Math.sqrt(sum / (output.length - 2 * from));
  return 20 * Math.log10(Math.max(rms, 1e-9) / (AMPLITUDE / Math.SQRT2));
}

export interface ResamplerQuality {
  /** Largest gain deviation from 0 dB over the passband tones, in dB. */
  passbandRippleDb: number;
  /** Smallest rejection of what must not pass, in dB: images and aliases of the passband and transition tones, and tones above the output's Nyquist. */
  stopbandAttenuationDb: number;
}

/**
 * The passband is taken up to `passbandEdge` Hz; images and aliases are measured for tones up to
 * `imageEdge` Hz (the rejection of a tone's image at `inputRate − f`), and, when going down, tones above
 * the output's Nyquist frequency by `stopbandFrom` Hz and more are measured directly.
 */
export function resamplerQuality(
  resample: ResampleWhole,
  inputRate: number,
  outputRate: number,
  edges: { passbandEdge: number; imageEdge: number; stopbandFrom?: number },
): ResamplerQuality {
  let ripple = 0;
  let attenuation = Infinity;
  for (let f = 100; f <= edges.imageEdge; f += 250) {
    const response = toneResponse(resample, inputRate, outputRate, f);
    if (f <= edges.passbandEdge) ripple = Math.max(ripple, Math.abs(response.gainDb));
    attenuation = Math.min(attenuation, response.rejectionDb);
  }
  if (edges.stopbandFrom !== undefined) {
    for (let f = edges.stopbandFrom; f < inputRate / 2; f += 500)
      attenuation = Math.min(attenuation, -stopbandLevelDb(resample, inputRate, outputRate, f));
  }
  return { passbandRippleDb: ripple, stopbandAttenuationDb: attenuation };
}
