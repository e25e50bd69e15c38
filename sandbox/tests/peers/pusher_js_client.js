// pusher-js (its Node build) against the realtime sandbox, on every channel kind, signed in as a
// user. Channel authorization and user authentication come from the official server library
// (`pusher`), so both official libraries' signatures meet the sandbox's checks.
// Prints one JSON line per fact: {"ready": true, "socket_id", "members"} once subscribed and
// signed in, {"sent": "client-from-js"} after triggering a client event, then each app event as
// {"event", "channel", "data", "user_id"}; exits after <count> events.
// Usage: node pusher_js_client.js <port> <key> <secret> <user_id> <master_key_b64> <count>
const Pusher = require('pusher-js');
const PusherServer = require('pusher');
const [port, key, secret, userId, masterKey, count] = process.argv.slice(2);

const signer = new PusherServer({
  appId: 'unused', key, secret, encryptionMasterKeyBase64: masterKey,
});
const pusher = new Pusher(key, {
  cluster: 'local', wsHost: '127.0.0.1', wsPort: Number(port), forceTLS: false,
  enabledTransports: ['ws'], disableStats: true,
  channelAuthorization: {
    customHandler: ({ socketId, channelName }, callback) => {
      try {
        const data = channelName.startsWith('presence-')
          ? { user_id: userId, user_info: { name: 'from js' } }
          : undefined;
        callback(null, signer.authorizeChannel(socketId, channelName, data));
      } catch (e) { callback(e, null); }
    },
  },
  userAuthentication: {
    customHandler: ({ socketId }, callback) => {
      try { callback(null, signer.authenticateUser(socketId, { id: userId })); }
      catch (e) { callback(e, null); }
    },
  },
});
const out = (o) => console.log(JSON.stringify(o));
let left = Number(count);
const seen = (event, channel, data, metadata) => {
  if (event.startsWith('pusher:') || event.startsWith('pusher_internal:')) return;
  if (event.startsWith('client-') && !metadata) return; // seen by its own binding, with metadata
  out({ event, channel, data, user_id: metadata && metadata.user_id });
  if (--left <= 0) { pusher.disconnect(); setTimeout(() => process.exit(0), 50); }
};

const names = ['interop', 'private-interop', 'presence-interop', 'private-encrypted-interop'];
let pending = names.length + 1; // channels and the sign-in
let presence;
const oneDone = () => {
  if (--pending > 0) return;
  out({ ready: true, socket_id: pusher.connection.socket_id, members: Object.keys(presence.members.members).sort() });
  pusher.channel('private-interop').trigger('client-from-js', { from: 'js' });
  out({ sent: 'client-from-js' });
};
for (const name of names) {
  const ch = pusher.subscribe(name);
  if (name.startsWith('presence-')) presence = ch;
  ch.bind('pusher:subscription_succeeded', oneDone);
  ch.bind('pusher:subscription_error', (e) => { console.error('subscription error', name, JSON.stringify(e)); process.exit(2); });
  ch.bind_global((event, data, metadata) => seen(event, name, data, metadata));
}
// Global bindings get no metadata: client events are bound by name to see the sender.
pusher.channel('presence-interop').bind('client-from-rust', (data, metadata) => seen('client-from-rust', 'presence-interop', data, metadata || {}));
pusher.user.bind_global((event, data) => seen(event, 'user', data));
pusher.signin();
pusher.user.signinDonePromise.then(() => {
  if (!pusher.user.user_data) { console.error('sign-in failed'); process.exit(2); }
  oneDone();
});
pusher.connection.bind('error', (e) => console.error('connection error', JSON.stringify(e)));
setTimeout(() => { console.error('pusher_js_client.js timed out'); process.exit(3); }, 30000);
