/**
 * The device link as the hosts (the CLI's `serve --relay`, the editor's Link to Relay) start it: the device
 * door runs inside the local server's process, beside its job core, and only a host composes it.
 */
export { startDeviceClient, type DeviceClient, type DeviceClientOptions } from '../device/device-client';
