/** Download sizes for people: `63 MB`, `4.2 MB`. */
export const megabytes = (bytes: number | null): string =>
  bytes === null ? 'size unknown' : `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
