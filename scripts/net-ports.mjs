// Ports on this machine, for the scripts that start test services.
import { connect } from 'node:net';

/** Whether something already answers on 127.0.0.1:`port` (a service left running is never silently reused). */
export function portInUse(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
