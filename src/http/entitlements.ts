export const FEATURES = ['tts', 'stt', 'app_connection'] as const;
export type Feature = (typeof FEATURES)[number];

/** Which features the account may use; a missing one answers 402 ENTITLEMENT_REQUIRED. */
export interface EntitlementProvider {
  has(feature: Feature): boolean;
}

/** The local account grants every feature except those the settings switch off. */
export function localEntitlements(switchedOff: readonly Feature[] = []): EntitlementProvider {
  const off = new Set(switchedOff);
  return { has: (feature) => !off.has(feature) };
}
