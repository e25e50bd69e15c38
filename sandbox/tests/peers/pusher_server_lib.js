// The official Node server library (`pusher`) against the realtime sandbox: triggers on a public,
// a private and an encrypted channel (encrypted by the library), a batch, a user's events, reads
// channel and member info, then terminates the user's connections; a client with the wrong
// secret is refused. Prints one JSON line with what the API answered.
// Usage: node pusher_server_lib.js <port> <app_id> <key> <secret> <master_key_b64> <user_id>
const Pusher = require('pusher');
const [port, appId, key, secret, masterKey, userId] = process.argv.slice(2);
const options = { appId, key, secret, host: '127.0.0.1', port, useTLS: false, encryptionMasterKeyBase64: masterKey };
const pusher = new Pusher(options);
(async () => {
  const result = {};
  const ok = (res) => { if (res.status !== 200) throw new Error('status ' + res.status); return res.json(); };
  await ok(await pusher.trigger('lib-public', 'from-lib', { lang: 'js', n: [1, 2] }));
  await ok(await pusher.trigger(['private-lib', 'lib-public'], 'multi', 'plain text'));
  await ok(await pusher.trigger('private-encrypted-lib', 'sealed', { secret: 'only for subscribers' }));
  await ok(await pusher.triggerBatch([
    { channel: 'lib-public', name: 'batch-1', data: { i: 1 } },
    { channel: 'private-lib', name: 'batch-2', data: { i: 2 } },
  ]));
  await ok(await pusher.sendToUser(userId, 'direct', { to: userId }));
  result.trigger_info = await ok(await pusher.trigger('presence-lib', 'with-info', 'x', { info: 'user_count,subscription_count' }));
  result.channels = await ok(await pusher.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } }));
  result.channel = await ok(await pusher.get({ path: '/channels/presence-lib', params: { info: 'user_count,subscription_count' } }));
  result.users = await ok(await pusher.get({ path: '/channels/presence-lib/users' }));
  try {
    await new Pusher(Object.assign({}, options, { secret: 'wrong-secret' })).trigger('lib-public', 'nope', {});
    result.wrong_secret_status = 200;
  } catch (e) {
    result.wrong_secret_status = e.status;
  }
  await ok(await pusher.terminateUserConnections(userId));
  console.log(JSON.stringify(result));
})().catch((e) => { console.error(String(e && (e.body || e.message) || e)); process.exit(1); });
