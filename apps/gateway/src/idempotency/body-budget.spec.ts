import { AppError } from '@mt/errors';
import { createMetrics } from '@mt/metrics';
import { BodyBudget } from './body-budget';

describe('body budget', () => {
  it('lets bodies grow until the budget is used, refuses the next with a 503 and Retry-After, and frees on release', () => {
    const budget = new BodyBudget(100, createMetrics('budget-test'));
    const first = budget.reserve();
    const second = budget.reserve();
    first.cover(60);
    first.cover(40); // already covered: holds nothing more
    second.cover(30);
    expect(budget.inUse()).toBe(90);
    let refusal: unknown;
    try {
      second.cover(50);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'service_unavailable', headers: { 'Retry-After': '1' } });
    expect(budget.inUse()).toBe(90);
    first.release();
    first.release();
    expect(budget.inUse()).toBe(30);
    second.cover(50);
    second.release();
    expect(budget.inUse()).toBe(0);
  });
});
