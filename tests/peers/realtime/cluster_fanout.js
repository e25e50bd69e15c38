// Fan-out measurement with pusher-js (its Node build): `clients` connections in this process,
// all on one channel. Prints {"ready":true} once all are subscribed; then, for each event whose
// data is {"seq", "sent_us"}, once every client has it: {"seq", "lat_us": [one per client]}.
// Exits after `events` events (a warm-up event with seq < 0 is counted out).
// Usage: node cluster_fanout.js <port> <key> <channel> <clients> <events>
const Pusher = require('pusher-js');
const [port, key, channel, clients, events] = process.argv.slice(2);
const nowUs = () => Math.round((performance.timeOrigin + performance.now()) * 1000);
const total = Number(clients);
let subscribed = 0;
let done = 0;
const seen = new Map(); // seq -> latencies

for (let i = 0; i < total; i++) {
  const pusher = new Pusher(key, {
    cluster: 'local', wsHost: '127.0.0.1', wsPort: Number(port), forceTLS: false,
    enabledTransports: ['ws'], disableStats: true,
  });
  const ch = pusher.subscribe(channel);
  ch.bind('pusher:subscription_succeeded', () => {
    if (++subscribed === total) console.log(JSON.stringify({ ready: true }));
  });
  ch.bind('pusher:subscription_error', (e) => {
    console.error('subscription error', JSON.stringify(e));
    process.exit(2);
  });
  ch.bind('t', (data) => {
    const received = nowUs();
    const lat = seen.get(data.seq) || [];
    lat.push(received - data.sent_us);
    seen.set(data.seq, lat);
    if (lat.length === total) {
      seen.delete(data.seq);
      if (data.seq >= 0) {
        console.log(JSON.stringify({ seq: data.seq, lat_us: lat }));
        if (++done === Number(events)) process.exit(0);
      } else {
        console.log(JSON.stringify({ warmup: true }));
      }
    }
  });
}
setTimeout(() => { console.error('cluster_fanout.js timed out'); process.exit(3); }, 300000);
