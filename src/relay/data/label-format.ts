/** An operator's device label: lower-case letters, digits and `.-_:`, up to 63 characters, e.g. `gpu` or `site:paris`. */
export const LABEL = /^[a-z0-9][a-z0-9._:-]{0,62}$/;
