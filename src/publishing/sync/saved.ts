// A module of its own so the plan's messages (plan-messages.ts, loaded by every dry run) name it without
// loading the sums (drift.ts, identity.ts: node:crypto).

/**
 * Said in place of fields when the post was saved on the site after blogctl's last write (its `modified_gmt`
 * later than the write its state records: plan.ts savedAfterWrite) and no field's sum tells what changed: a
 * restored revision, which brings back an older write's content with that write's marker.
 */
export const SAVED = 'saved';
