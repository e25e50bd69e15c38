// Several pusher-js clients (its Node build) for the cluster tests, each subscribed to the
// given channels, private ones authorized locally with the `pusher` library. One JSON line per
// thing that happens, with the client's index `i` and a wall-clock time in µs:
//   {"i","state","previous","socket_id","at_us"}  on every connection state change
//   {"i","subscribed","socket_id","at_us"}         on every subscription_succeeded (reconnects too)
//   {"i","event","channel","data","at_us"}          on every other event
// Runs until stdin closes (the test ends) or 120 s pass.
// Usage: node cluster_clients.js <port> <app_id> <key> <secret> <clients> <channel,channel,...>
const Pusher = require('pusher-js');
const PusherServer = require('pusher');
const [port, appId, key, secret, clients, channels] = process.argv.slice(2);
const signer = new PusherServer({ appId, key, secret, host: '127.0.0.1', port, useTLS: false });
const nowUs = () => Math.round((performance.timeOrigin + performance.now()) * 1000);
const out = (line) => process.stdout.write(JSON.stringify({ ...line, at_us: nowUs() }) + '\n');

for (let i = 0; i < Number(clients); i++) {
  const pusher = new Pusher(key, {
    cluster: 'local', wsHost: '127.0.0.1', wsPort: Number(port), forceTLS: false,
    enabledTransports: ['ws'], disableStats: true,
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) => {
        try {
          callback(null, signer.authorizeChannel(socketId, channelName));
        } catch (e) {
          callback(e, null);
        }
      },
    },
  });
  pusher.connection.bind('state_change', ({ previous, current }) =>
    out({ i, state: current, previous, socket_id: pusher.connection.socket_id || null }));
  for (const name of channels.split(',')) {
    const ch = pusher.subscribe(name);
    ch.bind('pusher:subscription_succeeded', () =>
      out({ i, subscribed: name, socket_id: pusher.connection.socket_id }));
    ch.bind('pusher:subscription_error', (e) => {
      console.error('subscription error', name, JSON.stringify(e));
      process.exit(2);
    });
    ch.bind_global((event, data) => {
      if (!event.startsWith('pusher:')) out({ i, event, channel: name, data });
    });
  }
}
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
setTimeout(() => { console.error('cluster_clients.js timed out'); process.exit(3); }, 120000);
