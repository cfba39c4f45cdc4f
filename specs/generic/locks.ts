// The run-wide locks of account-wide state (`Check.exclusively`, a recipe's or a check's `exclusive`), kept out of
// valid-requests.ts, which exports them too.
/** State there is one of per account, written by several spec files: its writes and the checks judging them take turns. */
export const MONITOR_PLAN_LOCK = 'monitor-plan';
export const ACCOUNT_LOCK = 'account';
/** One IPv6 range per region per account: a region is found free and a range made there without another file between. */
export const IPV6_RANGES_LOCK = 'ipv6-ranges';
/** POST seen marks every event up to an id: a check judging which events are seen holds it, so no other file marks a later one meanwhile. */
export const EVENTS_SEEN_LOCK = 'events-seen';
/**
 * The card on file, which every POST credit-card replaces: the declined-cancel check holds it from adding its declining
 * card through putting a good one back, so no card another file adds in between makes the cancel succeed (a server
 * closing a cancelled account would refuse the rest of the run); every check adding a card takes it.
 */
export const CARD_LOCK = 'credit-card';
