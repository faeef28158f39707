import { planHasSortStep } from './index-order';

describe('planHasSortStep', () => {
  it('finds mongod’s blocking SORT stage', () => {
    expect(planHasSortStep({ queryPlanner: { winningPlan: { stage: 'SORT', inputStage: { stage: 'COLLSCAN' } } } })).toBe(true);
  });

  it('sees no sort in an index-ordered mongod plan', () => {
    expect(planHasSortStep({ queryPlanner: { winningPlan: { stage: 'LIMIT', inputStage: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: '_id_' } } } } })).toBe(false);
  });

  it('finds PostgreSQL’s Sort node inside a DocumentDB plan (a JSON string within the explain)', () => {
    const postgresqlPlan = JSON.stringify([{ Plan: { 'Node Type': 'Limit', Plans: [{ 'Node Type': 'Sort', 'Sort Key': ['x'] }] } }]);
    expect(planHasSortStep({ queryPlanner: { winningPlan: { stage: 'DOCUMENTDB_POSTGRESQL', postgresqlPlan } } })).toBe(true);
    const indexOnly = JSON.stringify([{ Plan: { 'Node Type': 'Limit', Plans: [{ 'Node Type': 'Index Scan' }] } }]);
    expect(planHasSortStep({ queryPlanner: { winningPlan: { stage: 'DOCUMENTDB_POSTGRESQL', postgresqlPlan: indexOnly } } })).toBe(false);
  });
});
