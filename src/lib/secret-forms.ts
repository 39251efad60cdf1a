// The forms a secret can take in text that came back from a peer, so that none of them is relayed: the
// secret itself; base64 of it, standard and URL-safe, on its own or inside a longer encoding (a Basic
// header, a JSON blob: three alignments, each without the characters its neighbours also shape); hex;
// percent-encoding; and a cut form, a token that is the secret's start and/or end around "…", "...",
// "***" or any run of `*` or `.` (`sk-ab***cd`, `sk-proj-abc...wxyz`). Pure: no state, no imports.

/** Secrets shorter than this are not looked for in other forms (too many false matches). */
const MIN_SECRET = 8;
/** The shortest start or end of a secret taken as a piece of it around a cut. */
const MIN_PIECE = 4;

/** The encodings of `secret` to look for in text (longest first), the secret itself included. */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  if (secret.length >= MIN_SECRET) {
    const bytes = Buffer.from(secret, 'utf8');
    for (let align = 0; align < 3; align++) {
      const padded = Buffer.concat([Buffer.alloc(align), bytes]);
      const encoded = padded.toString('base64').replace(/=+$/, '');
      // Characters wholly made of the secret's bits: from the first after the alignment's bytes to the
      // last before the end of the secret.
      const from = Math.ceil((8 * align) / 6);
      const to = Math.floor((8 * (align + bytes.length)) / 6);
      const core = encoded.slice(from, to);
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
    forms.add(bytes.toString('hex'));
    forms.add(bytes.toString('hex').toUpperCase());
    forms.add(encodeURIComponent(secret));
  }
  return [...forms].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** A cut: where a peer or a table shortened a secret. */
const CUT_MARK = /…|\.{2,}|\*{2,}/;

/**
 * `text` with every form of `secret` (secretForms) and every cut form of it replaced by `replacement`. A cut
 * form is a token (a run without white space or quotes) that a cut mark splits into pieces: the first a
 * start of the secret, the last an end of it, any between a part of it (each may be empty), at least four
 * of the secret's characters in all.
 */
export function scrubSecret(text: string, secret: string | undefined, replacement: string): string {
  if (!secret) return text;
  let out = text;
  for (const form of secretForms(secret)) if (out.includes(form)) out = out.split(form).join(replacement);
  if (secret.length < MIN_SECRET || !CUT_MARK.test(out)) return out;
  return out.replace(/[^\s"'`<>()[\]{},;]+/g, (token) => (isCutForm(token, secret) ? replacement : token));
}

function isCutForm(token: string, secret: string): boolean {
  // Sentence punctuation after the token is not part of it (a cut's own dots are).
  const core = /(?:…|\.{2,}|\*{2,})$/.test(token) ? token : token.replace(/[,:;!?.]+$/, '');
  const pieces = core.split(/…|\.{2,}|\*{2,}/);
  if (pieces.length < 2) return false;
  let chars = 0;
  for (const [i, piece] of pieces.entries()) {
    if (!piece) continue;
    const fits =
      i === 0
        ? secret.startsWith(piece)
        : i === pieces.length - 1
          ? secret.endsWith(piece)
          : secret.includes(piece);
    if (!fits) return false;
    chars += piece.length;
  }
  return chars >= MIN_PIECE;
}
