/** Sign-out after inactivity (SPEC section 4), with its warning dialog. */
export { InactivityMonitor } from './InactivityMonitor';
