import { describeRelayContract } from './helpers/contract-suite';

describeRelayContract('PGlite (embedded)', async () => ({ stop: async () => undefined }));
