// Variations of the fifteenth audit's error findings (part b), spread at the end of NARROWED_READINGS (narrowed.ts,
// near the 600-line bound test/emulator/architecture sets).
import { D1, D2, defineVariations } from './define.js';

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
});
