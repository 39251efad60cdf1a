// What every refusal of a site's credentials tells the user to do, wherever the refusal comes from (the
// site itself, or the service relaying it): kept apart from the client so a command that only plans loads
// no HTTP code for it.

/** How to check a site's credentials and store new ones, for every refusal of them. */
export const CHECK_AND_CHANGE =
  '`blogctl wp sites verify SITE` tells which; `blogctl wp sites set-password SITE` stores a new password';
