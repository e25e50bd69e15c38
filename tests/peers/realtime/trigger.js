// Triggers events with the official Node server library.
// Usage: node trigger.js <port> <app_id> <key> <secret> <channel> <event> <json data> [count]
const Pusher = require('pusher');
const [port, appId, key, secret, channel, event, data, count] = process.argv.slice(2);
const pusher = new Pusher({ appId, key, secret, host: '127.0.0.1', port, useTLS: false });
(async () => {
  for (let i = 0; i < Number(count || 1); i++) {
    const res = await pusher.trigger(channel, event, JSON.parse(data));
    if (res.status !== 200) { console.error('status', res.status); process.exit(1); }
  }
  console.log(JSON.stringify({ ok: true }));
})().catch((e) => { console.error(String(e && (e.body || e.message) || e)); process.exit(1); });
