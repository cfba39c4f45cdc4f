// Faults breaking part 3's rules: domains, monitoring, firewalls, IPs.
import { defineFaults } from './define.js';
export const part3Faults = defineFaults({
  'P3.firewall.status.enable-blocked-by-active': { does: 'enables a disabled firewall while another enabled firewall is assigned to the same instance' },
});
