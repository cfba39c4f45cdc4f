// What the compute self-tests share: a strong password, the instances path, and requests that create instances
// and read their profiles and disks.
import { expect } from 'vitest';
import { DEFAULT_TOKEN } from '../../emulator/server.js';
import { useEmulator, withTokens } from './supertest-helpers.js';

export const STRONG = 'Str0ng!Pass';
export const I = '/v4/compute/instances';
export const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

/** One emulator for the test file (reset before each test) and the compute requests on it. */
export function useCompute() {
  const emulator = useEmulator();
  const requests = withTokens(emulator);
  const { get, post } = requests;

  async function advance(seconds: number): Promise<void> {
    expect((await post('/__control/clock', { advance_seconds: seconds })).status).toBe(200);
  }

  async function create(body: object = {}, tok = DEFAULT_TOKEN): Promise<Record<string, any>> {
    const res = await post(I, { region: 'us-east', type: 'g6-nanode-1', image: 'compute/debian12', root_pass: STRONG, ...body }, tok);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  const configsOf = async (id: number) => (await get(`${I}/${id}/configs`)).body.data as Record<string, any>[];
  const diskIds = async (id: number) => {
    const cfgs = await configsOf(id);
    return cfgs
      .flatMap((c) =>
        Object.values(c.devices)
          .filter(Boolean)
          .map((d: any) => d.disk_id),
      )
      .filter((x) => x != null) as number[];
  };

  return { emulator, ...requests, advance, create, configsOf, diskIds };
}
