import { describe, expect, it } from 'vitest';
import { FREE_PLAN_WATERMARK } from '@sheaf/shared';
import { planWatermark } from './watermarkNotice.ts';

describe('planWatermark (step 4 says the plan adds a watermark)', () => {
  it('names the Free plan’s watermark, in both editions, and none for paid plans', () => {
    expect(planWatermark('Free', 'web')).toBe(FREE_PLAN_WATERMARK);
    expect(planWatermark('Free', 'desktop')).toBe(FREE_PLAN_WATERMARK);
    expect(planWatermark('Pro', 'web')).toBeNull();
    expect(planWatermark('Enterprise', 'web')).toBeNull();
  });

  it('says nothing until the user and the edition are known', () => {
    expect(planWatermark(undefined, 'web')).toBeNull();
    expect(planWatermark('Free', undefined)).toBeNull();
  });
});
