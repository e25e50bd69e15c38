// Subscribes with pusher-js (its Node build) and prints each event as one JSON line:
// {"ready":true} once subscribed, then {"event","channel","data","received_us"}.
// Usage: node listen.js <port> <key> <channel> <count>
const Pusher = require('pusher-js');
const [port, key, channel, count] = process.argv.slice(2);
const pusher = new Pusher(key, {
  cluster: 'local', wsHost: '127.0.0.1', wsPort: Number(port), forceTLS: false,
  enabledTransports: ['ws'], disableStats: true,
});
const nowUs = () => Math.round((performance.timeOrigin + performance.now()) * 1000);
let left = Number(count);
const ch = pusher.subscribe(channel);
ch.bind('pusher:subscription_succeeded', () => console.log(JSON.stringify({ ready: true })));
ch.bind('pusher:subscription_error', (e) => { console.error('subscription error', e); process.exit(2); });
ch.bind_global((event, data) => {
  if (event.startsWith('pusher:')) return;
  const received_us = nowUs();
  console.log(JSON.stringify({ event, channel, data, received_us }));
  if (--left <= 0) { pusher.disconnect(); setTimeout(() => process.exit(0), 50); }
});
setTimeout(() => { console.error('listen.js timed out'); process.exit(3); }, 120000);
