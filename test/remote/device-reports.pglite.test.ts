import { describeDeviceReports } from './helpers/device-report-suite';

describeDeviceReports('PGlite', () => Promise.resolve({ options: {}, stop: () => Promise.resolve() }));
