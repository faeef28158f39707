let mockMongooseLoaded = false;
jest.mock('mongoose', () => {
  mockMongooseLoaded = true;
  return jest.requireActual('mongoose');
});

describe('the stores library', () => {
  it('loads mongoose only when a MongoDB connection is created (the gateway and the registry never do)', () => {
    jest.isolateModules(() => {
      const stores = require('./index') as typeof import('./index');
      expect(mockMongooseLoaded).toBe(false);
      const connection = stores.createMongoConnection();
      expect(mockMongooseLoaded).toBe(true);
      expect(connection.readyState).toBe(0);
    });
  });
});
