// Variations of the fifteenth audit's error findings (part b), spread at the end of NARROWED_READINGS (narrowed.ts,
// near the 600-line bound test/emulator/architecture sets).
import { D1, D2, D3, defineVariations } from './define.js';

export const ERRORS_B_READINGS = defineVariations({
  'resize-refused-while-balance-owed': {
    leaves: `${D2}, Compute instances: "Resize preconditions: no pending migration; no outstanding balance on the account; …" and ${D1}, Account: "balance | number | US dollars" (whether any balance above 0 is outstanding, or only one past due, is not shown)`,
    does: 'refuses a resize (400 naming no field, a reason about the balance) while GET /v4/account shows a balance above 0, as the seeded account does (25.50)',
  },
  'upload-needs-token-404': {
    leaves: `${D2}, Images: "Upload rules: data goes by HTTP PUT to \`upload_to\` with header \`Content-type: application/octet-stream\`; …" (whether the PUT carries the caller's token is not shown, nor what one without it answers)`,
    does: "answers 404 to a data upload to upload_to without the caller's token (as upload-needs-token does with 401)",
  },
  'weak-password-worded-complexity': {
    leaves: `${D1}, Errors 2: "Known reasons: a root password that is too weak yields a reason that says it does not meet the strength requirement" (the words are not shown)`,
    does: 'refuses a weak root password with the reason "Password does not meet the complexity requirements."',
  },
  'absent-target-empty-priority-first': {
    leaves: `${D3}, Domain record: "priority | integer | 0..255; …; default 0 for MX; must be 0 for a null MX" and "MX | mail subdomain; empty string for a null MX | mail server, valid domain, required; empty string for a null MX" (whether an absent target is read as "", and which member of such a null MX with a name and a priority other than 0 an error names, is not shown)`,
    does: 'reads an MX record without target as one with target "" (as absent-target-empty does), and refuses such a null MX with a priority other than 0 naming priority, before its name',
  },
});
