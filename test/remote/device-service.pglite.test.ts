import { describeDeviceService } from './helpers/device-service-suite';

describeDeviceService('PGlite', () => Promise.resolve({ options: {}, stop: () => Promise.resolve() }));
