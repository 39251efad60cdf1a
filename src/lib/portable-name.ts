// File names made from a site's data (a post's slug, an image's name) that every file system and checkout
// takes the same way: a repository pulled on Linux is cloned on Windows and macOS too. A leaf module.
//
// - only letters, digits, `_` and `-` from the data (no control or line-separator character, C0, C1,
//   U+2028/U+2029, no `<>:"/\|?*`, no trailing dot or space), in Unicode's composed form (NFC), so a name
//   is the same bytes from pull to pull;
// - never a name Windows reserves for a device (CON, PRN, AUX, NUL, COM0–9, LPT0–9 and their superscript
//   forms), in any case and with any extension: `con.md` opens the console there;
// - at most 100 characters of the data.
// Names that differ only in case are told apart by the caller (caseKey): macOS and Windows see one file.

const DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/**
 * `text` as the stem of a file name: letters and digits kept, every run of anything else one `-`, no `-` at
 * either end, at most `max` characters; `fallback` when nothing is left; a device name gets `-file` after it.
 */
export function portableStem(text: string, fallback: string, max = 100): string {
  const stem = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  if (!stem) return fallback;
  return DEVICE.test(stem) ? `${stem}-file` : stem;
}

/** Whether `name` (a stem, with or without extensions) is a name Windows keeps for a device. */
export function isDeviceName(name: string): boolean {
  return DEVICE.test(name.split('.')[0]!.trimEnd());
}

/** The key two names share when a case-insensitive file system (macOS, Windows) takes them for one. */
export function caseKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
